package io.readmark.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * .mvn/find-jdk.sh, which ./mvnw and ./readmark source: run under {@code sh} with mvnw's {@code set -euf}, against
 * fake JDKs whose {@code bin/java} only prints the properties the script reads.
 */
class FindJdkScriptTest {

    private static final Path ROOT = DeploymentFiles.repositoryRoot();
    private static final String NONE_LINE = "mvnw: needs a JDK 21 or newer; install one"
            + " (e.g. apt-get install openjdk-21-jdk / temurin-21) or set JAVA_HOME";

    @TempDir
    Path tmp;
    private Path jvms;
    private Path pathDir;

    @BeforeEach
    void folders() throws IOException {
        jvms = Files.createDirectories(tmp.resolve("jvm"));
        // First on PATH, so the machine's own java (which may well be 21+) is never what the script finds.
        pathDir = Files.createDirectories(tmp.resolve("bin"));
        fakeJava(pathDir.resolve("java"), 17, tmp.resolve("path-jdk"));
    }

    @Test
    void picksTheNewestJdk21PlusBesideAnOlderDefaultJavaAndSaysSo() throws Exception {
        // Given JDKs 17, 21 and 22 installed, a JRE 25 (no javac), JAVA_HOME unset and java 17 on PATH
        fakeJdk("jdk-17", 17);
        fakeJdk("jdk-21", 21);
        Path jdk22 = fakeJdk("jdk-22", 22);
        fakeJava(Files.createDirectories(jvms.resolve("jre-25/bin")).resolve("java"), 25, jvms.resolve("jre-25"));

        // When the script looks for a JDK
        Result result = findJdk(null);

        // Then it exports the newest JDK and says in one line which it chose and why
        assertThat(result.exitCode()).isZero();
        assertThat(result.javaHome()).isEqualTo(jdk22.toString());
        assertThat(result.stderr()).isEqualTo("mvnw: using JDK 22 at " + jdk22
                + " (JAVA_HOME is unset; no java 21+ on PATH)\n");
    }

    @Test
    void replacesAJavaHomeBelow21() throws Exception {
        Path jdk17 = fakeJdk("jdk-17", 17);
        Path jdk21 = fakeJdk("jdk-21", 21);

        Result result = findJdk(jdk17);

        assertThat(result.exitCode()).isZero();
        assertThat(result.javaHome()).isEqualTo(jdk21.toString());
        assertThat(result.stderr()).isEqualTo("mvnw: using JDK 21 at " + jdk21
                + " (JAVA_HOME is JDK 17; no java 21+ on PATH)\n");
    }

    @Test
    void keepsAJavaHomeOf21OrNewerSilently() throws Exception {
        fakeJdk("jdk-25", 25);
        Path jdk21 = fakeJdk("jdk-21", 21);

        Result result = findJdk(jdk21);

        assertThat(result.exitCode()).isZero();
        assertThat(result.javaHome()).isEqualTo(jdk21.toString());
        assertThat(result.stderr()).isEmpty();
    }

    @Test
    void prefersAJava21PlusOnPathToTheInstallFolders() throws Exception {
        // Given the java on PATH is a 21 living elsewhere (as /usr/bin/java links into its JDK), and a 25 installed
        Path pathJdk = fakeJdk("elsewhere-21", 21);
        Files.delete(pathDir.resolve("java"));
        fakeJava(pathDir.resolve("java"), 21, pathJdk);
        fakeJdk("jdk-25", 25);

        // When the script looks with JAVA_HOME unset, Then it takes that JDK's home, silently: nothing was overridden
        Result result = findJdk(null);

        assertThat(result.exitCode()).isZero();
        assertThat(result.javaHome()).isEqualTo(pathJdk.toString());
        assertThat(result.stderr()).isEmpty();
    }

    @Test
    void withoutAJdk21PlusStopsWithOneLineSayingWhatToDo() throws Exception {
        // Given only a JDK 17 anywhere
        Path jdk17 = fakeJdk("jdk-17", 17);

        // When the script looks, with JAVA_HOME unset or pointing at the 17
        for (Path javaHome : new Path[] {null, jdk17}) {
            Result result = findJdk(javaHome);

            // Then it fails with exactly the one line
            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.stderr()).isEqualTo(NONE_LINE + "\n");
            assertThat(result.stdout()).isEmpty();
        }
    }

    @Test
    void mvnwAndReadmarkBothUseTheScript() {
        assertThat(DeploymentFiles.read(ROOT.resolve("mvnw")))
                .contains(". \"$(dirname \"$0\")/.mvn/find-jdk.sh\"", "find_jdk mvnw || exit 1");
        assertThat(DeploymentFiles.read(ROOT.resolve("readmark")))
                .contains(". \"$root/.mvn/find-jdk.sh\"", "find_jdk readmark || exit 1");
    }

    private record Result(int exitCode, String stdout, String stderr) {
        String javaHome() {
            return stdout.strip().replaceFirst("^JAVA_HOME=", "");
        }
    }

    /** Sources the script as mvnw does ({@code set -euf}) and prints the JAVA_HOME it leaves. */
    private Result findJdk(Path javaHome) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c",
                "set -euf; . \"$0\"; find_jdk mvnw || exit 1; echo \"JAVA_HOME=$JAVA_HOME\"",
                ROOT.resolve(".mvn/find-jdk.sh").toString());
        Map<String, String> env = builder.environment();
        env.remove("JAVA_HOME");
        if (javaHome != null) env.put("JAVA_HOME", javaHome.toString());
        env.put("PATH", pathDir + ":/usr/bin:/bin");
        env.put("READMARK_JDK_DIRS", jvms.toString());
        builder.redirectOutput(tmp.resolve("out.txt").toFile()).redirectError(tmp.resolve("err.txt").toFile());
        Process process = builder.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("find-jdk.sh finished").isTrue();
        return new Result(process.exitValue(), Files.readString(tmp.resolve("out.txt")), Files.readString(tmp.resolve("err.txt")));
    }

    /** A folder {@code jvm/NAME} with a {@code bin/java} of the given version and a {@code bin/javac}. */
    private Path fakeJdk(String name, int version) throws IOException {
        Path home = jvms.resolve(name);
        Path bin = Files.createDirectories(home.resolve("bin"));
        fakeJava(bin.resolve("java"), version, home);
        executable(bin.resolve("javac"), "#!/bin/sh\nexit 0\n");
        return home;
    }

    /** What {@code java -XshowSettings:properties -version} prints, on stderr as a real java does, and nothing else. */
    private static void fakeJava(Path file, int version, Path home) throws IOException {
        executable(file, """
                #!/bin/sh
                cat >&2 <<'EOF'
                Property settings:
                    java.home = %s
                    java.specification.version = %d
                    java.version = %d.0.1

                openjdk version "%d.0.1"
                EOF
                """.formatted(home, version, version, version));
    }

    private static void executable(Path file, String content) throws IOException {
        Files.writeString(file, content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
