package io.readmark.e2e;

import io.lettuce.core.SetArgs;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.readmark.infra.PrometheusText.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The web client (clients/js, as the Maven build compiled it) in a real browser against the whole pipeline with
 * authentication on, loaded by a page of another origin that fetches a token for every connect: the badge and the
 * inbox follow publishes and reads; a stream cut by a view API restart ends with the current counts; a change whose
 * push never came is noticed by its version and the counts read again; a client refused a stream polls, and a poll
 * when nothing changed is a 304.
 */
class WebClientIT {

    private static final Duration WITHIN = Duration.ofSeconds(20);
    private static final HttpClient http = HttpClient.newHttpClient();
    private static WebClientPage page;
    private static PipelineFixture pipeline;
    private static ChromeDriver browser;
    private static RedisConnections redis;
    private static UnreadKeys keys;

    @BeforeAll
    static void start() throws Exception {
        page = WebClientPage.start();
        Map<String, String> settings = new HashMap<>(TestTokens.SETTINGS);
        settings.putAll(Map.of(
                "VIEW_API_CORS_ORIGINS", page.origin(),
                // One stream per user, so that a second is refused and the client polls.
                "VIEW_API_STREAMS_PER_USER", "1",
                // A reconnect soon after a cut, as a client honours retry:.
                "VIEW_API_STREAM_RETRY", "200",
                // No upkeep while the tests run (its first tick comes a sixteenth of this after the start): it would
                // restore a live key a test removed (see below).
                "VIEW_API_STREAM_HEARTBEAT", "PT24H"));
        pipeline = PipelineFixture.start("web-client", settings);
        redis = RedisConnections.connect(pipeline.settings().find("REDIS_URL").orElseThrow(), Duration.ofSeconds(10), false);
        keys = new UnreadKeys(pipeline.settings().find("READMARK_REDIS_PREFIX").orElseThrow());
        browser = HeadlessChromium.start();
    }

    @AfterAll
    static void stop() {
        if (browser != null) browser.quit();
        if (redis != null) redis.close();
        if (pipeline != null) pipeline.close();
        if (page != null) page.close();
    }

    @Test
    void theBadgeAndTheInboxFollowPublishesAndReads() throws Exception {
        long user = pipeline.newId();
        long author = pipeline.newId();
        long older = pipeline.newId();
        long newer = pipeline.newId();
        open(user, "&pageSize=1");
        awaitLive("0");

        // A second apart: the unread order is by whole seconds published.
        pipeline.produce(pipeline.followed(user, author), pipeline.published(older, author, Instant.now()),
                pipeline.published(newer, author, Instant.now().plusSeconds(1)));
        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(badge()).isEqualTo("2");
            assertThat(inbox()).containsExactly(Long.toString(newer));
        });
        browser.findElement(By.cssSelector("#inbox button.load-more")).click();
        await().atMost(WITHIN).untilAsserted(() -> assertThat(inbox()).containsExactly(Long.toString(newer), Long.toString(older)));
        assertThat(browser.findElement(By.cssSelector("#inbox button.load-more")).isDisplayed()).as("no more pages").isFalse();

        pipeline.produce(pipeline.read(user, newer, author, Instant.now()));
        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(badge()).isEqualTo("1");
            assertThat(inbox()).containsExactly(Long.toString(older));
        });
    }

    @Test
    void aStreamCutByARestartEndsWithTheCurrentCountsAndAFreshToken() throws Exception {
        long user = pipeline.newId();
        long author = pipeline.newId();
        watchOnePost(user, author, "");
        int tokens = page.tokensIssued(user);

        pipeline.stack().stopViewApi();
        await().atMost(WITHIN).untilAsserted(() -> assertThat(stale()).as("a count that may be out of date says so").isTrue());
        // A post while no view API runs: only the snapshot of the next stream can bring it.
        publishAndAwaitDelivery(author);
        assertThat(badge()).isEqualTo("1");
        pipeline.stack().startViewApi();

        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(badge()).isEqualTo("2");
            assertThat(stale()).isFalse();
            assertThat(browser.executeScript("return window.client.state")).isEqualTo("live");
        });
        assertThat(page.tokensIssued(user)).as("every reconnect asks for a token").isGreaterThan(tokens);
        assertThat(recorded("gaps")).as("the snapshot is above the last version seen").hasSize(1);
    }

    @Test
    void aChangeWhosePushNeverCameIsFoundByItsVersionAndTheCountsAreReadAgain() throws Exception {
        long user = pipeline.newId();
        long author = pipeline.newId();
        watchOnePost(user, author, "&idle=600000");

        // The scripts publish a change only while the user's live key says someone listens: without it, this post's
        // push is lost, as a notification lost on its way would be.
        redis.shared().sync().del(keys.live(user));
        publishAndAwaitDelivery(author);
        redis.shared().sync().set(keys.live(user), "1", SetArgs.Builder.px(Duration.ofMinutes(10).toMillis()));
        assertThat(recorded("reads")).as("no read before the gap").isEmpty();

        pipeline.produce(pipeline.published(pipeline.newId(), author, Instant.now()));
        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(badge()).isEqualTo("3");
            assertThat(recorded("gaps")).hasSize(1);
            assertThat(recorded("reads")).as("the counts read after the gap").isNotEmpty();
        });
    }

    @Test
    void aClientRefusedAStreamPollsAndAPollWhenNothingChangedIsA304() throws Exception {
        long user = pipeline.newId();
        long author = pipeline.newId();
        // Another tab holds the user's one stream.
        HttpResponse<InputStream> held = http.send(HttpRequest.newBuilder(URI.create(
                        pipeline.stack().viewApiUrl() + "/v1/users/" + user + "/unread/stream"))
                .header("Authorization", TestTokens.bearer(TestTokens.user(user))).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream stream = held.body()) {
            assertThat(held.statusCode()).isEqualTo(200);
            double unchanged = countsAnswers("304");
            open(user, "&poll=250");
            await().atMost(WITHIN).untilAsserted(() -> {
                assertThat(browser.executeScript("return window.client.state")).isEqualTo("polling");
                assertThat(badge()).isEqualTo("0");
                assertThat(stale()).isFalse();
                assertThat(countsAnswers("304")).as("polls answered without a body").isGreaterThanOrEqualTo(unchanged + 2);
            });

            pipeline.produce(pipeline.followed(user, author), pipeline.published(pipeline.newId(), author, Instant.now()));
            await().atMost(WITHIN).untilAsserted(() -> assertThat(badge()).isEqualTo("1"));
        }
    }

    @Test
    void thePageServesTheModulesAsTheDemoPageDoesAndNoOtherResource() throws Exception {
        assertThat(http.send(HttpRequest.newBuilder(URI.create(page.origin() + "/client/index.js")).build(),
                HttpResponse.BodyHandlers.ofString()).body()).contains("export function defineElements");
        // On the class path, under the modules' directory, but named as no module is: refused as the demo page refuses it.
        String planted = "unchecked-name-longer-than-any-module-name-the-build-writes-so-never-served.js";
        assertThat(WebClientIT.class.getClassLoader().getResource("readmark-client/" + planted)).isNotNull();
        assertThat(http.send(HttpRequest.newBuilder(URI.create(page.origin() + "/client/" + planted)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(404);
    }

    private static void open(long user, String options) {
        browser.get(page.origin() + "/page.html?user=" + user + "&api="
                + URLEncoder.encode(pipeline.stack().viewApiUrl(), StandardCharsets.UTF_8) + options);
    }

    /** Opens the page for a user who follows the author, with one post of theirs unread, once the badge shows it. */
    private static void watchOnePost(long user, long author, String options) throws Exception {
        open(user, options);
        awaitLive("0");
        pipeline.produce(pipeline.followed(user, author), pipeline.published(pipeline.newId(), author, Instant.now()));
        await().atMost(WITHIN).untilAsserted(() -> assertThat(badge()).isEqualTo("1"));
    }

    /** A post, once Redis acknowledged its delivery: a barrier that holds whatever the view API does meanwhile. */
    private static void publishAndAwaitDelivery(long author) throws Exception {
        double delivered = deliveries();
        pipeline.produce(pipeline.published(pipeline.newId(), author, Instant.now()));
        await().atMost(WITHIN).until(() -> deliveries() > delivered);
    }

    private static void awaitLive(String count) {
        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(browser.executeScript("return window.client && window.client.state")).isEqualTo("live");
            assertThat(badge()).isEqualTo(count);
        });
    }

    private static String badge() {
        return browser.findElement(By.id("badge")).getText();
    }

    private static boolean stale() {
        return browser.findElement(By.id("badge")).getDomAttribute("stale") != null;
    }

    /** The blog ids the inbox lists, in order. */
    private static List<String> inbox() {
        return browser.findElements(By.cssSelector("#inbox li")).stream().map(item -> item.getDomAttribute("data-blog")).toList();
    }

    private static List<?> recorded(String what) {
        return (List<?>) browser.executeScript("return window.recorded." + what);
    }

    /** Deliveries Redis acknowledged, by the processor's metrics. */
    private static double deliveries() throws Exception {
        return sum(pipeline.processor("/metrics").body(), "readmark_deliveries_total");
    }

    /** The view API's answers to GET …/unread with this status, from its metrics. */
    private static double countsAnswers(String status) throws Exception {
        return sum(pipeline.viewManagement("/metrics").body(), "http_server_requests_seconds_count",
                "route=\"/v1/users/{userId}/unread\"", "status=\"" + status + "\"");
    }
}
