package io.readmark.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

/**
 * Keeps the docs in proportion: each page within its size, docs/ as a whole within its own, and every relative link
 * between them pointing at a file and heading that exist. A reader finds a fact in a minute only while this holds.
 */
class DocumentationTest {

    private static final Path ROOT = DeploymentFiles.repositoryRoot();

    /** Pages with a size of their own, in bytes. */
    private static final Map<String, Integer> PAGE_LIMITS = Map.of(
            "README.md", 20_000,
            "docs/ARCHITECTURE.md", 15_000,
            "docs/BENCHMARKS.md", 30_000);
    /** All of docs/, reference tables and the chart included. */
    private static final int DOCS_LIMIT = 150_000;

    private static final Pattern LINK = Pattern.compile("\\[[^]]*]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} (.+)$");

    @Test
    void shouldKeepEachPageWithinItsSize() {
        assertSoftly(softly -> PAGE_LIMITS.forEach((page, limit) ->
                softly.assertThat(size(ROOT.resolve(page))).as("bytes of %s", page).isLessThanOrEqualTo(limit)));
    }

    @Test
    void shouldKeepAllOfDocsWithinItsSize() {
        long total = files(ROOT.resolve("docs")).stream().mapToLong(DocumentationTest::size).sum();

        assertThat(total).as("bytes of every file in docs/").isLessThanOrEqualTo(DOCS_LIMIT);
    }

    @Test
    void shouldLinkOnlyToFilesAndHeadingsThatExist() {
        List<Path> pages = Stream.concat(Stream.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md")),
                files(ROOT.resolve("docs")).stream().filter(f -> f.toString().endsWith(".md"))).toList();

        assertSoftly(softly -> pages.forEach(page -> {
            Matcher link = LINK.matcher(DeploymentFiles.read(page));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) continue;
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                softly.assertThat(linked).as("%s links to %s", ROOT.relativize(page), target).exists();
                if (target.contains("#") && linked.toString().endsWith(".md") && Files.exists(linked)) {
                    softly.assertThat(anchors(linked)).as("headings of %s, linked from %s", ROOT.relativize(linked),
                            ROOT.relativize(page)).contains(target.substring(target.indexOf('#') + 1));
                }
            }
        }));
    }

    /** GitHub's anchors: lower case, punctuation dropped, spaces to hyphens. */
    private static List<String> anchors(Path page) {
        return HEADING.matcher(DeploymentFiles.read(page)).results()
                .map(h -> h.group(1).trim().toLowerCase().replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'))
                .toList();
    }

    private static List<Path> files(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
