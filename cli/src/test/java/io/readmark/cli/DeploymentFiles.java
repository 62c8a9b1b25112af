package io.readmark.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

/** Readers of the deployment files, as much of each format as this repository's files use. */
final class DeploymentFiles {

    private DeploymentFiles() {
    }

    /** The checkout's top folder, found from the working directory (Maven runs tests in the module's folder). */
    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("docker-compose.yml")) && Files.exists(dir.resolve("mvnw"))) return dir;
        }
        throw new IllegalStateException("no docker-compose.yml above " + Path.of("").toAbsolutePath());
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * docker-compose.yml: services with their environment, ports, healthcheck, dependencies and volumes.
     *
     * @param variables what {@code ${NAME}} in an environment value stands for, as the shell or {@code .env} would set it
     */
    record Compose(JsonNode root, Map<String, String> variables) {

        static Compose read(Path file, Map<String, String> variables) {
            try {
                return new Compose(new YAMLMapper().readTree(file.toFile()), variables);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Service service(String name) {
            JsonNode node = root.path("services").path(name);
            if (node.isMissingNode()) throw new AssertionError("docker-compose.yml has no service '" + name + "'");
            return new Service(name, node, variables);
        }

        /** The services built from a Dockerfile of this repository. */
        List<Service> builtServices() {
            return root.path("services").properties().stream()
                    .filter(e -> e.getValue().has("build"))
                    .map(e -> new Service(e.getKey(), e.getValue(), variables))
                    .toList();
        }

        /** The same file with other variables set. */
        Compose withVariables(Map<String, String> other) {
            return new Compose(root, other);
        }

        Set<String> namedVolumes() {
            Set<String> names = new TreeSet<>();
            root.path("volumes").fieldNames().forEachRemaining(names::add);
            return names;
        }
    }

    record Service(String name, JsonNode node, Map<String, String> variables) {

        private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?}");

        /** Environment in either form, {@code KEY: value} or {@code - KEY=value}, variables substituted. */
        Map<String, String> environment() {
            Map<String, String> env = new LinkedHashMap<>();
            JsonNode node = this.node.path("environment");
            if (node.isArray()) {
                node.forEach(entry -> {
                    String[] pair = entry.asText().split("=", 2);
                    env.put(pair[0], interpolate(pair.length > 1 ? pair[1] : ""));
                });
            } else {
                node.properties().forEach(e -> env.put(e.getKey(), interpolate(e.getValue().asText())));
            }
            return env;
        }

        /** {@code ${NAME}}, {@code ${NAME:-default}} and {@code ${NAME:?error}} (also without the colon), as Compose does. */
        private String interpolate(String value) {
            Matcher variable = VARIABLE.matcher(value);
            StringBuilder out = new StringBuilder();
            while (variable.find()) {
                String name = variable.group(1);
                String operator = variable.group(2);
                String set = variables.get(name);
                boolean unset = set == null || (operator != null && operator.startsWith(":") && set.isEmpty());
                String replacement;
                if (!unset || operator == null) {
                    replacement = set == null ? "" : set;
                } else if (operator.endsWith("-")) {
                    replacement = variable.group(3);
                } else {
                    throw new IllegalStateException("service " + this.name + " requires " + name + ": " + variable.group(3));
                }
                variable.appendReplacement(out, Matcher.quoteReplacement(replacement));
            }
            return variable.appendTail(out).toString();
        }

        /** The container side of every port mapping: {@code [ip:]host:container[/protocol]} or {@code target:}. */
        List<Integer> containerPorts() {
            return StreamSupport.stream(node.path("ports").spliterator(), false)
                    .map(port -> port.isObject() ? port.path("target").asInt()
                            : Integer.parseInt(last(port.asText().split("/")[0].split(":"))))
                    .toList();
        }

        /** The host address of every port mapping: {@code ip} of {@code ip:host:container} or {@code host_ip:}, "" for all. */
        List<String> hostAddresses() {
            return StreamSupport.stream(node.path("ports").spliterator(), false)
                    .map(port -> {
                        if (port.isObject()) return port.path("host_ip").asText();
                        String[] parts = port.asText().split(":");
                        return parts.length == 3 ? parts[0] : "";
                    })
                    .toList();
        }

        /** The healthcheck command as one string. */
        String healthcheck() {
            JsonNode test = node.path("healthcheck").path("test");
            return test.isArray() ? String.join(" ", strings(test)) : test.asText();
        }

        /** The command, entry point included, as one string. */
        String command() {
            JsonNode entrypoint = node.path("entrypoint");
            JsonNode command = node.path("command");
            List<String> words = new ArrayList<>();
            words.addAll(entrypoint.isArray() ? strings(entrypoint) : List.of(entrypoint.asText("")));
            words.addAll(command.isArray() ? strings(command) : List.of(command.asText("")));
            return String.join(" ", words);
        }

        /** Service name → condition, from the long form of {@code depends_on}. */
        Map<String, String> dependsOn() {
            Map<String, String> conditions = new HashMap<>();
            node.path("depends_on").properties().forEach(e -> conditions.put(e.getKey(), e.getValue().path("condition").asText()));
            return conditions;
        }

        /** Volume or host path → mount path, from the short form {@code name:/path[:mode]} and the long form. */
        Map<String, String> volumeMounts() {
            Map<String, String> mounts = new HashMap<>();
            mounts().forEach(mount -> mounts.put(mount.source(), mount.target()));
            return mounts;
        }

        /** Every entry of {@code volumes}, in either form. */
        List<Mount> mounts() {
            List<Mount> mounts = new ArrayList<>();
            node.path("volumes").forEach(volume -> {
                if (volume.isObject()) {
                    mounts.add(new Mount(volume.path("type").asText("volume"), volume.path("source").asText(),
                            volume.path("target").asText(), volume.path("read_only").asBoolean(false),
                            volume.path("bind").path("create_host_path").asBoolean(true)));
                } else {
                    String[] parts = volume.asText().split(":");
                    boolean bind = parts[0].startsWith(".") || parts[0].startsWith("/");
                    mounts.add(new Mount(bind ? "bind" : "volume", parts[0], parts[1], parts.length > 2 && parts[2].contains("ro"), true));
                }
            });
            return mounts;
        }

        Path dockerfile(Path root) {
            JsonNode build = node.path("build");
            return root.resolve(build.path("context").asText(".")).resolve(build.path("dockerfile").asText("Dockerfile")).normalize();
        }

        private static List<String> strings(JsonNode array) {
            return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
        }
    }

    /**
     * One entry of a service's {@code volumes}.
     *
     * @param type           {@code bind} (a host path) or {@code volume} (a named volume)
     * @param createHostPath whether Compose makes a missing bind source (as a directory) instead of failing
     */
    record Mount(String type, String source, String target, boolean readOnly, boolean createHostPath) {
    }

    /** A Dockerfile as stages of instructions; continuation lines joined, comments dropped. */
    record Dockerfile(Path path, List<Stage> stages) {

        static Dockerfile read(Path path) {
            List<Stage> stages = new ArrayList<>();
            StringBuilder pending = new StringBuilder();
            for (String line : DeploymentFiles.read(path).lines().toList()) {
                String trimmed = line.strip();
                if (trimmed.startsWith("#") || trimmed.isEmpty()) continue;
                if (trimmed.endsWith("\\")) {
                    pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
                    continue;
                }
                String[] parts = (pending + trimmed).split("\\s+", 2);
                pending.setLength(0);
                Instruction instruction = new Instruction(parts[0].toUpperCase(), parts.length > 1 ? parts[1] : "");
                if (instruction.keyword().equals("FROM")) stages.add(new Stage(new ArrayList<>()));
                if (stages.isEmpty()) throw new AssertionError(path + ": " + instruction + " before FROM");
                stages.getLast().instructions().add(instruction);
            }
            return new Dockerfile(path, stages);
        }

        Stage runtime() {
            return stages.getLast();
        }
    }

    record Stage(List<Instruction> instructions) {

        List<String> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword().equals(keyword)).map(Instruction::arguments).toList();
        }

        Optional<String> last(String keyword) {
            List<String> all = all(keyword);
            return all.isEmpty() ? Optional.empty() : Optional.of(all.getLast());
        }

        /** Every {@code ENV KEY=value ...}. */
        Map<String, String> environment() {
            Map<String, String> env = new LinkedHashMap<>();
            all("ENV").forEach(arguments -> Arrays.stream(arguments.split("\\s+")).forEach(pair -> {
                String[] kv = pair.split("=", 2);
                if (kv.length != 2) throw new AssertionError("ENV in the form KEY=value expected, was '" + arguments + "'");
                env.put(kv[0], kv[1]);
            }));
            return env;
        }

        List<Integer> exposedPorts() {
            return all("EXPOSE").stream().flatMap(a -> Arrays.stream(a.split("\\s+")))
                    .map(p -> Integer.parseInt(p.split("/")[0])).toList();
        }

        /** The exec form of {@code ENTRYPOINT}. */
        List<String> entrypoint() {
            String json = last("ENTRYPOINT").orElseThrow(() -> new AssertionError("no ENTRYPOINT"));
            try {
                return new ObjectMapper().readValue(json, new TypeReference<>() { });
            } catch (IOException e) {
                throw new AssertionError("ENTRYPOINT must be a JSON array (exec form, so java gets SIGTERM), was " + json, e);
            }
        }
    }

    record Instruction(String keyword, String arguments) {
        @Override
        public String toString() {
            return keyword + " " + arguments;
        }
    }

    /**
     * docs/CONFIGURATION.md: the setting names in backticks in the first cell of every table row, and the families
     * of settings passed on by prefix, written {@code `PREFIX_*`}.
     */
    record ConfigurationDoc(Set<String> names, Set<String> prefixes) {

        private static final Pattern ROW = Pattern.compile("^\\|([^|]*)\\|");
        private static final Pattern NAME = Pattern.compile("`([A-Z][A-Z0-9_]*)`");
        private static final Pattern FAMILY = Pattern.compile("`([A-Z][A-Z0-9_]*_)\\*`");

        static ConfigurationDoc read(Path file) {
            Set<String> names = new TreeSet<>();
            Set<String> prefixes = new TreeSet<>();
            for (String line : DeploymentFiles.read(file).lines().toList()) {
                Matcher row = ROW.matcher(line.strip());
                if (!row.find()) continue;
                NAME.matcher(row.group(1)).results().forEach(m -> names.add(m.group(1)));
                FAMILY.matcher(row.group(1)).results().forEach(m -> prefixes.add(m.group(1)));
            }
            return new ConfigurationDoc(names, prefixes);
        }

        boolean documents(String name) {
            return names.contains(name) || prefixes.stream().anyMatch(name::startsWith);
        }
    }

    private static String last(String[] parts) {
        return parts[parts.length - 1];
    }
}
