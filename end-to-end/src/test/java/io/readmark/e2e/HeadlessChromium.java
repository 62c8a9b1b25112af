package io.readmark.e2e;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real browser for the page tests: the machine's Chromium in headless mode, driven through its own chromedriver (so
 * nothing is downloaded). A missing browser fails the test with what to install; it never skips it.
 */
final class HeadlessChromium {

    private HeadlessChromium() {
    }

    static ChromeDriver start() {
        Path browser = find("CHROME_BINARY", List.of("chromium", "chromium-browser", "google-chrome"));
        Path driver = find("CHROMEDRIVER", List.of("chromedriver"));
        ChromeOptions options = new ChromeOptions()
                .setBinary(browser.toFile())
                // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                        "--window-size=1200,900");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    private static Path find(String variable, List<String> names) {
        Optional<Path> given = Optional.ofNullable(System.getenv(variable)).map(Path::of);
        Stream<Path> onPath = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .flatMap(dir -> names.stream().map(name -> Path.of(dir, name)));
        return given.or(() -> onPath.filter(Files::isExecutable).findFirst()).orElseThrow(() -> new IllegalStateException(
                "no " + names.getFirst() + " found on PATH or in " + variable
                        + ": install Debian's chromium and chromium-driver (.ci/run does)"));
    }
}
