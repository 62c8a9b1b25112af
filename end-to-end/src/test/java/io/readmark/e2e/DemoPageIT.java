package io.readmark.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The demo inbox in a real browser against the whole local pipeline: the badge, the unseen count and the list follow
 * events pushed over the stream, and the page's buttons send reads, seen marks and read-alls through the producer API
 * (across origins, so CORS is exercised as a browser does it).
 */
class DemoPageIT {

    private static final Duration LIVE = Duration.ofSeconds(30);
    private static PipelineFixture pipeline;
    private static ChromeDriver browser;

    @BeforeAll
    static void start() throws Exception {
        pipeline = PipelineFixture.start("demo");
        browser = HeadlessChromium.start();
    }

    @AfterAll
    static void stop() {
        if (browser != null) browser.quit();
        if (pipeline != null) pipeline.close();
    }

    @Test
    void theBadgeFollowsEventsAndTheButtonsChangeTheState() throws Exception {
        long user = pipeline.newId();
        long author = pipeline.newId();
        watch(user);
        assertThat(text("badge-total")).isEqualTo("0");

        long first = pipeline.newId();
        long second = pipeline.newId();
        pipeline.post(pipeline.followed(user, author), pipeline.published(first, author, Instant.now()),
                pipeline.published(second, author, Instant.now()));
        await().atMost(LIVE).untilAsserted(() -> {
            assertThat(text("badge-total")).isEqualTo("2");
            assertThat(text("badge-unseen")).isEqualTo("2");
            // Published in the same second or one apart: newest second first, a second's posts by id as text.
            assertThat(browser.findElements(By.cssSelector("#items li"))).extracting(item -> item.getDomAttribute("data-blog"))
                    .containsExactlyInAnyOrder(Long.toString(second), Long.toString(first));
        });

        browser.findElement(By.id("mark-seen")).click();
        await().atMost(LIVE).untilAsserted(() -> assertThat(text("badge-unseen")).isEqualTo("0"));
        assertThat(text("badge-total")).as("seen is not read").isEqualTo("2");
        Instant seen = Instant.now();

        browser.findElement(By.cssSelector("#items li[data-blog='" + first + "'] button.read-item")).click();
        await().atMost(LIVE).untilAsserted(() -> {
            assertThat(text("badge-total")).isEqualTo("1");
            assertThat(browser.findElements(By.cssSelector("#items li"))).hasSize(1);
        });

        // A moment covers its whole second: the next post must come a second after the inbox was seen to be unseen.
        nextSecondAfter(seen);
        long third = pipeline.newId();
        Instant thirdAt = Instant.now();
        pipeline.post(pipeline.published(third, author, thirdAt));
        await().atMost(LIVE).untilAsserted(() -> {
            assertThat(text("badge-total")).isEqualTo("2");
            assertThat(text("badge-unseen")).isEqualTo("1");
            assertThat(browser.findElement(By.cssSelector("#authors li[data-author='" + author + "']")).getText())
                    .startsWith("author " + author + ": 2 unread");
        });

        browser.findElement(By.id("mark-page-read")).click();
        await().atMost(LIVE).untilAsserted(() -> {
            assertThat(text("badge-total")).isEqualTo("0");
            assertThat(browser.findElements(By.cssSelector("#items li, #authors li"))).isEmpty();
        });

        nextSecondAfter(thirdAt);
        long fourth = pipeline.newId();
        pipeline.post(pipeline.published(fourth, author, Instant.now()));
        await().atMost(LIVE).untilAsserted(() -> assertThat(text("badge-total")).isEqualTo("1"));

        browser.findElement(By.id("mark-all-read")).click();
        await().atMost(LIVE).untilAsserted(() -> {
            assertThat(text("badge-total")).isEqualTo("0");
            assertThat(text("badge-unseen")).isEqualTo("0");
            assertThat(browser.findElements(By.cssSelector("#items li, #authors li"))).isEmpty();
        });
        assertThat(counts(user)).as("what the page shows is what the API answers")
                .contains("\"total\":0").contains("\"byAuthor\":{}");

        browser.findElement(By.id("announce")).click();
        await().atMost(LIVE).untilAsserted(() -> {
            assertThat(text("badge-notices")).isEqualTo("1");
            assertThat(text("badge-total")).isEqualTo("1");
            assertThat(browser.findElements(By.cssSelector("#notices li button.read-notice"))).hasSize(1);
        });
        browser.findElement(By.cssSelector("#notices li button.read-notice")).click();
        await().atMost(LIVE).untilAsserted(() -> {
            assertThat(text("badge-notices")).isEqualTo("0");
            assertThat(text("badge-total")).isEqualTo("0");
            assertThat(browser.findElement(By.cssSelector("#notices li")).getText()).endsWith("(read)");
        });
        assertThat(counts(user)).contains("\"notices\":0");
    }

    @Test
    void aUserIdThatIsNoIdIsSaidSoAndNothingOfTheUserBeforeStays() {
        long user = pipeline.newId();
        WebElement userField = watch(user);

        userField.clear();
        userField.sendKeys("0");
        browser.findElement(By.id("connect")).click();
        await().atMost(LIVE).untilAsserted(() -> assertThat(text("status")).startsWith("not a user id:"));
        assertThat(text("badge-total")).as("no count of the user before").isEmpty();
    }

    @Test
    void thePageMayCallOnlyItsOwnOriginAndTheProducerApi() throws Exception {
        HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(pipeline.stack().demoUrl())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy -> assertThat(policy)
                .contains("default-src 'none'", "script-src 'self'", "connect-src 'self' " + pipeline.stack().producerApiUrl()));
        assertThat(page.body()).contains(pipeline.stack().producerApiUrl());
    }

    @Test
    void thePageLoadsTheWebClientTheBuildCompiledAndNoOtherResource() throws Exception {
        HttpResponse<String> module = demo("/client/index.js");
        assertThat(module.statusCode()).isEqualTo(200);
        assertThat(module.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(module.body()).contains("export function defineElements");
        assertThat(demo("/client/missing.js").statusCode()).isEqualTo(404);
        // On the class path, under the modules' directory, but longer than a module's name may be: a lookup would find it.
        String planted = "unchecked-name-longer-than-any-module-name-the-build-writes-so-never-served.js";
        assertThat(DemoPageIT.class.getClassLoader().getResource("readmark-client/" + planted)).isNotNull();
        assertThat(demo("/client/" + planted).statusCode()).as("names are checked, not looked up").isEqualTo(404);
        assertThat(demo("/client/logback.xml").statusCode()).isEqualTo(404);
    }

    private static HttpResponse<String> demo(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(pipeline.stack().demoUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Opens the demo page and watches the user, returning the user field. */
    private static WebElement watch(long user) {
        browser.get(pipeline.stack().demoUrl());
        WebElement userField = browser.findElement(By.id("user"));
        userField.clear();
        userField.sendKeys(Long.toString(user));
        browser.findElement(By.id("connect")).click();
        await().atMost(LIVE).untilAsserted(() -> assertThat(text("status")).isEqualTo("live for user " + user));
        return userField;
    }

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    /** Waits for the clock to pass the second of {@code moment}. */
    private static void nextSecondAfter(Instant moment) {
        await().atMost(Duration.ofSeconds(3)).until(() -> Instant.now().getEpochSecond() > moment.getEpochSecond());
    }

    private static String counts(long user) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(pipeline.stack().viewApiUrl()
                + "/v1/users/" + user + "/unread")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
