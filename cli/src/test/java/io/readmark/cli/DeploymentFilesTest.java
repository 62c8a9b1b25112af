package io.readmark.cli;

import io.readmark.cli.DeploymentFiles.Compose;
import io.readmark.cli.DeploymentFiles.ConfigurationDoc;
import io.readmark.cli.DeploymentFiles.Dockerfile;
import io.readmark.cli.DeploymentFiles.Mount;
import io.readmark.cli.DeploymentFiles.Service;
import io.readmark.cli.DeploymentFiles.Stage;
import io.readmark.common.auth.AuthConfig;
import io.readmark.common.auth.InvalidTokenException;
import io.readmark.common.auth.JwtVerifier;
import io.readmark.common.config.KafkaClientSettings;
import io.readmark.common.config.Settings;
import io.readmark.infra.DocumentedRedisUsers;
import io.readmark.processor.ProcessorConfig;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.reliability.SoakConfig;
import io.readmark.schemas.Topics;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.view.ViewApiConfig;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

/**
 * Holds docker-compose.yml, the Dockerfiles and docs/CONFIGURATION.md to the code: setting names, ports,
 * addresses, topics and entry points that would otherwise only fail once the containers run.
 */
class DeploymentFilesTest {

    private static final Path ROOT = DeploymentFiles.repositoryRoot();
    /** The Kafka passwords, which the compose file requires and the README writes to {@code .env}. */
    private static final Compose COMPOSE = Compose.read(ROOT.resolve("docker-compose.yml"), Map.of(
            "KAFKA_BROKER_PASSWORD", "broker-secret", "KAFKA_TOPICS_PASSWORD", "topics-secret",
            "KAFKA_PROCESSOR_PASSWORD", "processor-secret", "KAFKA_PRODUCER_API_PASSWORD", "producer-secret"));
    /**
     * A key pair for every file a service mounts from {@code keys/}, which the README has users make and git ignores:
     * the test stands in for them so the services' configurations load their keys as in the containers.
     */
    private static final KeyFiles KEYS = KeyFiles.forMountsOf(COMPOSE);
    private static final ConfigurationDoc DOCS = ConfigurationDoc.read(ROOT.resolve("docs/CONFIGURATION.md"));
    private static final String KAFKA = "kafka";
    private static final String REDIS = "redis";
    private static final String TOPICS_JOB = "topics";
    /** Where compose mounts a service's secrets; the test stands in a file of its own for each. */
    private static final String SECRETS = "/run/secrets/";
    private static final Path SECRET_FILE = secretFile();
    /** What the build stage builds and the runtime stage copies; the dev tools' jar is never in an image. */
    private static final String PRODUCTION_JAR = "cli/target/readmark.jar";

    /** What each command reads: building its configuration looks up every setting it has. */
    private static final Map<String, Consumer<Settings>> CONFIGS = Map.of(
            "producer-api", ProducerApiConfig::from,
            "view-api", ViewApiConfig::from,
            "stream-processor", ProcessorConfig::from,
            "token", settings -> TokenCommand.sign(settings, Instant.now()),
            "rebuild", settings -> RebuildCommand.from(settings, Instant.now()),
            "reconcile", ReconcileCommand.Config::from,
            "soak", SoakConfig::from);

    @Test
    void shouldDocumentEverySettingTheCodeReads() {
        assertSoftly(softly -> CONFIGS.forEach((command, config) -> {
            // Only what a command cannot start without is set; it reads every other setting with its default.
            Settings settings = Settings.of(Map.of(), Map.of(TokenCommand.SECRET, "x".repeat(32), TokenCommand.SUBJECT, "1",
                    TokenCommand.API, "view"));
            config.accept(settings);
            softly.assertThat(undocumented(settings.namesLookedUp()))
                    .as("settings `readmark %s` reads that docs/CONFIGURATION.md does not document", command).isEmpty();
        }));
    }

    @Test
    void shouldVerifyEachApiWithThePublicKeyOfItsOwnPairAndItsOwnAudience() throws Exception {
        Service producer = serviceRunning("producer-api");
        Service view = serviceRunning("view-api");
        AuthConfig producerAuth = ProducerApiConfig.from(settingsOf(producer)).auth();
        AuthConfig viewAuth = ViewApiConfig.from(settingsOf(view)).auth();
        Mount producerKey = keyMount(producer);
        Mount viewKey = keyMount(view);

        assertSoftly(softly -> {
            for (Service service : COMPOSE.builtServices()) {
                softly.assertThat(service.environment()).as("environment of service %s: compose verifies with public keys, "
                        + "never with a secret both APIs would share", service.name()).doesNotContainKey(AuthConfig.HS256_SECRET);
            }
            softly.assertThat(producerAuth.enabled()).as("authentication of service %s", producer.name()).isTrue();
            softly.assertThat(viewAuth.enabled()).as("authentication of service %s", view.name()).isTrue();
            softly.assertThat(producerKey.source()).as("key file of service %s (service %s mounts %s)", producer.name(), view.name(),
                    viewKey.source()).isNotEqualTo(viewKey.source());
            softly.assertThat(producerAuth.audience()).as("audience of service %s", producer.name())
                    .isEqualTo(TokenCommand.DEFAULT_AUDIENCES.get("producer")).isNotEqualTo(viewAuth.audience());
            softly.assertThat(viewAuth.audience()).as("audience of service %s", view.name())
                    .isEqualTo(TokenCommand.DEFAULT_AUDIENCES.get("view"));
        });

        // What `readmark token` mints with each private key, as the README shows, passes its own API only.
        Clock clock = Clock.systemUTC();
        JwtVerifier producerVerifier = new JwtVerifier(producerAuth, clock);
        JwtVerifier viewVerifier = new JwtVerifier(viewAuth, clock);
        String publish = KEYS.token(producerKey.source(), "producer", "readmark:publish");
        String readAny = KEYS.token(viewKey.source(), "view", "readmark:read-any");
        String publishWithViewKey = KEYS.token(viewKey.source(), "producer", "readmark:publish");
        assertThat(producerVerifier.verify(publish).hasScope("readmark:publish")).isTrue();
        assertThat(viewVerifier.verify(readAny).hasScope("readmark:read-any")).isTrue();
        assertThat(catchThrowable(() -> viewVerifier.verify(publish))).as("the producer API's token at the view API")
                .isInstanceOf(InvalidTokenException.class);
        assertThat(catchThrowable(() -> producerVerifier.verify(readAny))).as("the view API's token at the producer API")
                .isInstanceOf(InvalidTokenException.class);
        assertThat(catchThrowable(() -> producerVerifier.verify(publishWithViewKey)))
                .as("a token with the producer's audience signed with the view API's key, at the producer API")
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("signature does not verify");
    }

    @Test
    void shouldMountOnlyPublicKeysThatTheReadmeMakesAndGitAndTheImagesLeaveOut() {
        String readme = DeploymentFiles.read(ROOT.resolve("README.md"));
        Set<String> gitignore = Set.copyOf(DeploymentFiles.read(ROOT.resolve(".gitignore")).lines().map(String::strip).toList());
        Set<String> dockerignore = Set.copyOf(DeploymentFiles.read(ROOT.resolve(".dockerignore")).lines().map(String::strip).toList());
        assertSoftly(softly -> COMPOSE.builtServices().forEach(service -> service.mounts().stream()
                .filter(mount -> mount.type().equals("bind")).forEach(mount -> {
                    String source = Path.of(mount.source()).normalize().toString();
                    String folder = Path.of(source).getName(0).toString();
                    softly.assertThat(source).as("file service %s mounts", service.name()).endsWith("-public.pem")
                            .doesNotContain("private");
                    softly.assertThat(mount.readOnly()).as("read_only of %s in service %s", source, service.name()).isTrue();
                    softly.assertThat(mount.createHostPath()).as("create_host_path of %s in service %s (a missing key file must "
                            + "stop the start, not become a directory)", source, service.name()).isFalse();
                    softly.assertThat(readme).as("README.md making %s, which service %s mounts", source, service.name())
                            .contains("-pubout -out " + source);
                    softly.assertThat(gitignore).as(".gitignore, which must keep %s/ (private keys) out of git", folder)
                            .containsAnyOf(folder + "/", "/" + folder + "/");
                    softly.assertThat(dockerignore).as(".dockerignore, which must keep %s (private keys) out of the image builds", folder)
                            .contains(folder);
                })));
    }

    @Test
    void shouldDocumentEveryVariableTheDeploymentSets() {
        assertSoftly(softly -> COMPOSE.builtServices().forEach(service -> {
            softly.assertThat(undocumented(service.environment().keySet()))
                    .as("variables service %s sets in docker-compose.yml that docs/CONFIGURATION.md does not document", service.name())
                    .isEmpty();
            softly.assertThat(undocumented(runtimeStage(service).environment().keySet()))
                    .as("variables %s sets with ENV that docs/CONFIGURATION.md does not document", dockerfile(service).path())
                    .isEmpty();
        }));
    }

    @Test
    void shouldPublishTheApiPortsOnlyAndProbeTheManagementPorts() {
        Pattern probe = Pattern.compile("/dev/tcp/[^/\\s]+/(\\d+)\\b.*GET (\\S+) HTTP/");
        assertSoftly(softly -> COMPOSE.builtServices().forEach(service -> {
            OptionalInt api = apiPort(service);
            int management = managementPort(service);
            softly.assertThat(service.containerPorts())
                    .as("container ports service %s publishes in docker-compose.yml (its API listens on %s)", service.name(), api)
                    .isEqualTo(api.isPresent() ? List.of(api.getAsInt()) : List.of());
            List<Integer> listening = api.isPresent() ? List.of(api.getAsInt(), management) : List.of(management);
            softly.assertThat(runtimeStage(service).exposedPorts())
                    .as("EXPOSE in %s (service %s listens on %s)", dockerfile(service).path(), service.name(), listening)
                    .containsExactlyInAnyOrderElementsOf(listening);
            Matcher healthcheck = probe.matcher(service.healthcheck());
            if (!healthcheck.find()) {
                softly.fail("healthcheck of service %s does not probe /dev/tcp/<host>/<port> with GET <path>: %s",
                        service.name(), service.healthcheck());
                return;
            }
            softly.assertThat(Integer.parseInt(healthcheck.group(1)))
                    .as("port the healthcheck of service %s probes (its management port is %d)", service.name(), management)
                    .isEqualTo(management);
            softly.assertThat(healthcheck.group(2)).as("path the healthcheck of service %s probes", service.name())
                    .isEqualTo("/health/ready");
        }));
    }

    @Test
    void shouldLetEachServiceIntoRedisOnlyAsItsDocumentedUserWithASecretOfItsOwn() {
        Service redis = COMPOSE.service(REDIS);
        String acl = redis.command().replace("$$", "$");
        List<Service> clients = COMPOSE.builtServices().stream().filter(s -> s.environment().containsKey(RedisEndpoint.URL)).toList();

        assertThat(redis.containerPorts()).as("ports Redis publishes in docker-compose.yml").isEmpty();
        assertThat(acl).as("command of service %s", REDIS).contains("echo \"user default off resetpass ~* &* +@all\"").contains("--aclfile /tmp/users.acl");
        assertThat(clients).extracting(Service::name).containsExactlyInAnyOrder("stream-processor", "view-api");
        assertSoftly(softly -> clients.forEach(service -> {
            Map<String, String> env = service.environment();
            String user = env.get(RedisEndpoint.USERNAME);
            String secret = env.getOrDefault(RedisEndpoint.PASSWORD_FILE, "");
            softly.assertThat(secret).as("%s of service %s", RedisEndpoint.PASSWORD_FILE, service.name()).startsWith(SECRETS);
            softly.assertThat(service.node().path("secrets").toString()).as("secrets of service %s", service.name())
                    .contains("\"" + secret.substring(Math.min(secret.length(), SECRETS.length())) + "\"");
            softly.assertThat(env).as("environment of service %s", service.name()).doesNotContainKey(RedisEndpoint.PASSWORD);
            softly.assertThat(env.get(RedisEndpoint.URL)).as("%s of service %s", RedisEndpoint.URL, service.name()).doesNotContain("@");
            // Its user, with exactly the documented rules and the password of its own secret.
            String documented = "user " + String.join(" ", DocumentedRedisUsers.rules(Map.of(user, "$(cat " + secret + ")")).getFirst());
            softly.assertThat(acl).as("the ACL file service %s writes, for the user of service %s", REDIS, service.name())
                    .contains("echo \"" + documented + "\"");
            softly.assertThat(RedisEndpoint.from(settingsOf(service))).as("Redis endpoint of service %s", service.name())
                    .hasToString("redis://redis:6379 as " + user + " (password set)");
        }));
        assertThat(clients.stream().map(s -> s.environment().get(RedisEndpoint.PASSWORD_FILE)).distinct())
                .as("secrets of the services").hasSameSizeAs(clients);
    }

    @Test
    void shouldPublishTheProducerApiToThisHostOnlyAsAnInternalService() {
        Service producer = serviceRunning("producer-api");

        assertThat(producer.hostAddresses()).as("host addresses the producer API's ports are published on in docker-compose.yml")
                .allSatisfy(address -> assertThat(address).isEqualTo("127.0.0.1"));
    }

    /**
     * Other containers reach Kafka through SASL listeners only, each service logging in as a user of its own that the
     * broker knows with the same password; no port of Kafka is published beyond this machine.
     */
    @Test
    void shouldLetOnlyServicesLoggedInAsTheirOwnUserReachKafka() {
        Map<String, String> env = COMPOSE.service(KAFKA).environment();
        Map<String, String> protocols = new HashMap<>();
        for (String entry : env.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP").split(",")) {
            protocols.put(entry.split(":")[0].strip(), entry.split(":")[1].strip());
        }
        String listener = env.get("KAFKA_INTER_BROKER_LISTENER_NAME");
        String mechanism = env.getOrDefault("KAFKA_SASL_ENABLED_MECHANISMS", "none");
        Map<String, String> users = new HashMap<>();
        String brokerJaas = env.getOrDefault("KAFKA_LISTENER_NAME_" + listener + "_" + mechanism.replace('-', '_') + "_SASL_JAAS_CONFIG", "");
        Pattern.compile("user_([A-Za-z0-9]+)=\"([^\"]*)\"").matcher(brokerJaas).results().forEach(m -> users.put(m.group(1), m.group(2)));
        Pattern login = Pattern.compile("username=\"([^\"]*)\"\\s+password=\"([^\"]*)\"");
        Set<String> loggedIn = new TreeSet<>();

        assertSoftly(softly -> {
            softly.assertThat(COMPOSE.service(KAFKA).hostAddresses()).as("host addresses the kafka service's ports are published on")
                    .allSatisfy(address -> assertThat(address).isEqualTo("127.0.0.1"));
            for (String bound : env.get("KAFKA_LISTENERS").split(",")) {
                String name = bound.substring(0, bound.indexOf("://"));
                String host = bound.substring(name.length() + 3, bound.lastIndexOf(':'));
                if (host.equals("127.0.0.1") || host.equals("localhost")) continue;
                softly.assertThat(protocols.get(name)).as("protocol of listener %s, which other containers reach", bound).startsWith("SASL_");
            }
            softly.assertThat(users).as("users of the kafka service's %s listener (%s)", listener, mechanism).isNotEmpty();
            COMPOSE.builtServices().stream().filter(s -> namesRead(s).contains("KAFKA_BOOTSTRAP_SERVERS")).forEach(service -> {
                Map<String, Object> client = KafkaClientSettings.from(settingsOf(service)).properties();
                softly.assertThat(client).as("Kafka client settings of service %s", service.name())
                        .containsEntry("security.protocol", protocols.get(listener)).containsEntry("sasl.mechanism", mechanism);
                Matcher user = login.matcher(String.valueOf(client.get("sasl.jaas.config")));
                if (!user.find()) {
                    softly.fail("service %s gives no username and password in KAFKA_CLIENT_SASL_JAAS_CONFIG", service.name());
                    return;
                }
                softly.assertThat(users).as("users the kafka service accepts, with service %s's", service.name())
                        .containsEntry(user.group(1), user.group(2));
                softly.assertThat(loggedIn.add(user.group(1))).as("user %s of service %s is its own", user.group(1), service.name()).isTrue();
            });
        });
    }

    @Test
    void shouldPointEachServiceAtTheKafkaAndRedisServicesAndStartItAfterThem() {
        String bootstrap = internalKafkaListener();
        String redisUrl = "redis://" + REDIS + ":6379";
        assertSoftly(softly -> COMPOSE.builtServices().forEach(service -> {
            Set<String> reads = namesRead(service);
            Map<String, String> env = service.environment();
            if (reads.contains("KAFKA_BOOTSTRAP_SERVERS")) {
                softly.assertThat(env.get("KAFKA_BOOTSTRAP_SERVERS"))
                        .as("KAFKA_BOOTSTRAP_SERVERS of service %s (the kafka service's inter-broker listener)", service.name())
                        .isEqualTo(bootstrap);
                softly.assertThat(service.dependsOn().get(TOPICS_JOB)).as("service %s depends_on %s", service.name(), TOPICS_JOB)
                        .isEqualTo("service_completed_successfully");
            }
            if (reads.contains("REDIS_URL")) {
                softly.assertThat(env.get("REDIS_URL")).as("REDIS_URL of service %s", service.name()).isEqualTo(redisUrl);
                softly.assertThat(service.dependsOn().get(REDIS)).as("service %s depends_on %s", service.name(), REDIS)
                        .isEqualTo("service_healthy");
            }
        }));
    }

    @Test
    void shouldCreateEveryTopicTheServicesUse() {
        Map<String, Integer> created = createdTopics();
        Service processor = serviceRunning("stream-processor");
        Topics topics = Topics.from(settingsOf(processor)::find);

        assertSoftly(softly -> {
            softly.assertThat(created.keySet()).as("topics the %s job creates", TOPICS_JOB).containsAll(topics.allNames());
            COMPOSE.builtServices().stream().filter(s -> namesRead(s).contains("READMARK_TOPIC_BLOG_EVENTS")).forEach(service ->
                    softly.assertThat(Topics.from(settingsOf(service)::find).allNames())
                            .as("topic names service %s uses (the processor's: %s)", service.name(), topics.allNames())
                            .isEqualTo(topics.allNames()));
        });
    }

    @Test
    void shouldBuildEachImageToRunItsDeployableAsAnUnprivilegedUser() {
        String buildStage = stageText(dockerfile(COMPOSE.builtServices().getFirst()).stages().getFirst());
        assertSoftly(softly -> COMPOSE.builtServices().forEach(service -> {
            Dockerfile dockerfile = dockerfile(service);
            Stage runtime = dockerfile.runtime();
            String user = runtime.last("USER").orElse("root").split(":")[0];
            softly.assertThat(user).as("USER of the runtime stage of %s", dockerfile.path()).isNotIn("root", "0");

            List<String> entrypoint = runtime.entrypoint();
            softly.assertThat(entrypoint.getFirst()).as("ENTRYPOINT of %s", dockerfile.path()).isEqualTo("java");
            int jar = entrypoint.indexOf("-jar");
            softly.assertThat(jar).as("ENTRYPOINT of %s runs a jar", dockerfile.path()).isPositive();
            if (jar > 0) {
                softly.assertThat(runtime.all("COPY"))
                        .as("COPY of %s puts the production jar (%s) where the ENTRYPOINT runs it", dockerfile.path(), PRODUCTION_JAR)
                        .anyMatch(copy -> copy.startsWith("--from=") && copy.contains("/" + PRODUCTION_JAR + " ")
                                && copy.endsWith(" " + entrypoint.get(jar + 1)));
            }
            softly.assertThat(Readmark.COMMANDS.keySet()).as("commands of the production jar; ENTRYPOINT of %s runs %s",
                    dockerfile.path(), entrypoint.getLast()).contains(entrypoint.getLast());
            softly.assertThat(Readmark.DEPLOYABLES.keySet()).as("deployables of the production jar; ENTRYPOINT of %s runs %s",
                    dockerfile.path(), entrypoint.getLast()).contains(entrypoint.getLast());

            softly.assertThat(stageText(dockerfile.stages().getFirst()))
                    .as("build stage of %s, the same in every Dockerfile so the Maven build is cached once", dockerfile.path())
                    .isEqualTo(buildStage);
        }));
    }

    @Test
    void shouldRunOnlyProductionCommandsInTheImagesInTheDocs() throws IOException {
        Pattern inImage = Pattern.compile("/app/readmark\\.jar ([a-z][a-z-]*)");
        List<Path> docs;
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            docs = Stream.concat(Stream.of(ROOT.resolve("README.md")), files.filter(f -> f.toString().endsWith(".md"))).toList();
        }
        assertSoftly(softly -> docs.forEach(doc -> inImage.matcher(DeploymentFiles.read(doc)).results().forEach(m ->
                softly.assertThat(Readmark.COMMANDS.keySet())
                        .as("commands of the production jar; %s runs `/app/readmark.jar %s` in an image", ROOT.relativize(doc), m.group(1))
                        .contains(m.group(1)))));
    }

    @Test
    void shouldCopyEveryModulePomBeforeResolvingDependencies() {
        List<String> modules = modulesOf("");
        Stage build = dockerfile(COMPOSE.builtServices().getFirst()).stages().getFirst();
        int firstRun = build.instructions().indexOf(build.instructions().stream()
                .filter(i -> i.keyword().equals("RUN")).findFirst().orElseThrow());
        List<String> copiedBefore = build.instructions().subList(0, firstRun).stream()
                .filter(i -> i.keyword().equals("COPY")).map(i -> i.arguments().split("\\s+")[0]).toList();

        assertThat(copiedBefore).as("poms the build stage copies before its first RUN (a missing one fails the build)")
                .containsAll(modules.stream().map(m -> m + "/pom.xml").toList());
    }

    /** The modules the pom in {@code folder} aggregates, and theirs in turn (lab/pom.xml aggregates the lab's). */
    private static List<String> modulesOf(String folder) {
        Path pom = ROOT.resolve(folder).resolve("pom.xml");
        return Pattern.compile("<module>([^<]+)</module>").matcher(DeploymentFiles.read(pom)).results()
                .map(m -> folder.isEmpty() ? m.group(1) : folder + "/" + m.group(1))
                .flatMap(module -> Stream.concat(Stream.of(module), modulesOf(module).stream()))
                .toList();
    }

    @Test
    void shouldKeepTheProcessorStateOnANamedVolume() {
        Service processor = serviceRunning("stream-processor");
        String stateDir = ProcessorConfig.from(settingsOf(processor)).stateDir().toString();

        assertThat(processor.volumeMounts()).as("volumes of service %s (PROCESSOR_STATE_DIR is %s)", processor.name(), stateDir)
                .containsValue(stateDir);
        processor.volumeMounts().forEach((volume, path) -> {
            if (path.equals(stateDir)) assertThat(COMPOSE.namedVolumes()).as("named volumes").contains(volume);
        });
    }

    /** Without a limit one container's growth (a JVM sized off the host, Redis's data) takes the whole machine. */
    @Test
    void shouldLimitTheMemoryOfEveryService() {
        assertSoftly(softly -> COMPOSE.root().path("services").properties().forEach(service ->
                softly.assertThat(service.getValue().path("mem_limit").asText())
                        .as("mem_limit of service %s, which docker compose and podman-compose both apply", service.getKey())
                        .matches("[1-9][0-9]*[mg]")));
    }

    private static Set<String> undocumented(Set<String> names) {
        Set<String> missing = new TreeSet<>(names);
        missing.removeIf(DOCS::documents);
        return missing;
    }

    private static Dockerfile dockerfile(Service service) {
        return Dockerfile.read(service.dockerfile(ROOT));
    }

    private static Stage runtimeStage(Service service) {
        return dockerfile(service).runtime();
    }

    /** The readmark command the service's image runs. */
    private static String command(Service service) {
        String command = runtimeStage(service).entrypoint().getLast();
        if (!CONFIGS.containsKey(command) || !Readmark.DEPLOYABLES.containsKey(command)) {
            throw new AssertionError("service " + service.name() + " runs `readmark " + command + "`, which is no deployable; "
                    + "the deployables are " + Readmark.DEPLOYABLES.keySet());
        }
        return command;
    }

    private static Service serviceRunning(String command) {
        return COMPOSE.builtServices().stream().filter(s -> command(s).equals(command)).findFirst()
                .orElseThrow(() -> new AssertionError("no service in docker-compose.yml runs `readmark " + command + "`"));
    }

    /**
     * The image's ENV below the service's environment, as the container sees them; a value naming a file the service
     * mounts from this checkout names the test's stand-in for that file instead.
     */
    private static Settings settingsOf(Service service) {
        Map<String, String> env = new HashMap<>(runtimeStage(service).environment());
        env.putAll(service.environment());
        Map<String, String> mounted = new HashMap<>();
        service.mounts().stream().filter(mount -> mount.type().equals("bind"))
                .forEach(mount -> mounted.put(mount.target(), KEYS.publicKeyFile(mount.source()).toString()));
        env.replaceAll((name, value) -> value.startsWith(SECRETS) ? SECRET_FILE.toString() : mounted.getOrDefault(value, value));
        return Settings.of(Map.of(), env);
    }

    private static Path secretFile() {
        try {
            Path file = Files.createTempFile("readmark-compose-secret", ".password");
            file.toFile().deleteOnExit();
            return Files.writeString(file, "compose-test-password\n");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The read-only mount holding the public key the service's {@code AUTH_*} key setting names. */
    private static Mount keyMount(Service service) {
        Map<String, String> env = service.environment();
        String file = env.getOrDefault(AuthConfig.PUBLIC_KEY_FILE, env.get(AuthConfig.JWKS_FILE));
        assertThat(file).as("%s or %s of service %s", AuthConfig.PUBLIC_KEY_FILE, AuthConfig.JWKS_FILE, service.name()).isNotNull();
        return service.mounts().stream().filter(mount -> mount.target().equals(file)).findFirst()
                .orElseThrow(() -> new AssertionError("service " + service.name() + " verifies tokens with " + file
                        + ", which none of its volumes mounts"));
    }

    /** An EC P-256 pair for each key file the compose services mount, as the README's openssl commands make them. */
    private record KeyFiles(Path dir, Map<String, KeyPair> pairs) {

        static KeyFiles forMountsOf(Compose compose) {
            try {
                Path dir = Files.createTempDirectory("readmark-compose-keys");
                dir.toFile().deleteOnExit();
                Map<String, KeyPair> pairs = new HashMap<>();
                KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
                generator.initialize(new ECGenParameterSpec("secp256r1"));
                compose.builtServices().forEach(service -> service.mounts().stream().filter(mount -> mount.type().equals("bind"))
                        .forEach(mount -> pairs.computeIfAbsent(mount.source(), source -> generator.generateKeyPair())));
                KeyFiles files = new KeyFiles(dir, pairs);
                for (Map.Entry<String, KeyPair> pair : pairs.entrySet()) {
                    Files.writeString(files.publicKeyFile(pair.getKey()), pem("PUBLIC KEY", pair.getValue().getPublic().getEncoded()));
                    Files.writeString(files.privateKeyFile(pair.getKey()), pem("PRIVATE KEY", pair.getValue().getPrivate().getEncoded()));
                }
                return files;
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }

        Path publicKeyFile(String source) {
            return file(source, "public");
        }

        Path privateKeyFile(String source) {
            return file(source, "private");
        }

        /** What {@code readmark token} prints for that API, signed with the private key of the pair of {@code source}. */
        String token(String source, String api, String scope) {
            return TokenCommand.sign(Settings.of(Map.of(TokenCommand.API, api, TokenCommand.SUBJECT, "blog-service",
                    TokenCommand.SCOPE, scope, TokenCommand.PRIVATE_KEY_FILE, privateKeyFile(source).toString()), Map.of()), Instant.now());
        }

        private Path file(String source, String kind) {
            if (!pairs.containsKey(source)) throw new AssertionError("no service mounts " + source);
            File file = dir.resolve(Integer.toHexString(source.hashCode()) + "-" + kind + ".pem").toFile();
            file.deleteOnExit();
            return file.toPath();
        }

        private static String pem(String type, byte[] der) {
            return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                    + "\n-----END " + type + "-----\n";
        }
    }

    private static Set<String> namesRead(Service service) {
        Settings settings = settingsOf(service);
        CONFIGS.get(command(service)).accept(settings);
        return settings.namesLookedUp();
    }

    private static OptionalInt apiPort(Service service) {
        Settings settings = settingsOf(service);
        return switch (command(service)) {
            case "producer-api" -> OptionalInt.of(ProducerApiConfig.from(settings).port());
            case "view-api" -> OptionalInt.of(ViewApiConfig.from(settings).port());
            case "stream-processor" -> OptionalInt.empty();
            default -> throw new AssertionError("no port known for service " + service.name());
        };
    }

    private static int managementPort(Service service) {
        Settings settings = settingsOf(service);
        return switch (command(service)) {
            case "producer-api" -> ProducerApiConfig.from(settings).managementPort();
            case "view-api" -> ViewApiConfig.from(settings).managementPort();
            case "stream-processor" -> ProcessorConfig.from(settings).httpPort();
            default -> throw new AssertionError("no port known for service " + service.name());
        };
    }

    /** {@code host:port} the kafka service advertises on its inter-broker listener, the one for other containers. */
    private static String internalKafkaListener() {
        Map<String, String> env = COMPOSE.service(KAFKA).environment();
        String listener = env.get("KAFKA_INTER_BROKER_LISTENER_NAME");
        String address = Arrays.stream(env.get("KAFKA_ADVERTISED_LISTENERS").split(","))
                .filter(l -> l.startsWith(listener + "://")).findFirst()
                .map(l -> l.substring(listener.length() + 3))
                .orElseThrow(() -> new AssertionError("KAFKA_ADVERTISED_LISTENERS of the kafka service has no " + listener));
        assertThat(address).as("the kafka service's advertised %s listener", listener).startsWith(KAFKA + ":");
        return address;
    }

    /** Topic → partitions, from each {@code kafka-topics.sh --create} line of the topics job. */
    private static Map<String, Integer> createdTopics() {
        Map<String, Integer> created = new HashMap<>();
        for (String line : COMPOSE.service(TOPICS_JOB).command().split("\n")) {
            if (!line.contains("kafka-topics.sh") || !line.contains("--create")) continue;
            List<String> words = List.of(line.strip().split("\\s+"));
            assertThat(words).as("topics job line %s (logged in through --command-config)", line).contains("--if-not-exists", "--command-config");
            assertThat(valueOf(words, "--bootstrap-server")).as("bootstrap server of topics job line %s", line)
                    .isEqualTo(internalKafkaListener());
            created.put(valueOf(words, "--topic"), Integer.parseInt(valueOf(words, "--partitions")));
        }
        return created;
    }

    private static String valueOf(List<String> words, String option) {
        int i = words.indexOf(option);
        if (i < 0 || i + 1 >= words.size()) throw new AssertionError("no " + option + " in " + String.join(" ", words));
        return words.get(i + 1);
    }

    private static String stageText(Stage stage) {
        return String.join("\n", stage.instructions().stream().map(Object::toString).toList());
    }
}
