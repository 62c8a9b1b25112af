package io.readmark.processor.rebuild;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What earlier rebuilds of this application left when they were killed before their clean-up (SIGKILL, a lost host):
 * consumer groups, internal topics and local state folders, all named {@code <application>-rebuild-<stamp>} and
 * something. A rebuild removes them at its start and end. Only a rebuild none of whose groups has a member is removed;
 * one with members is running elsewhere or was killed less than a session timeout ago, and is left for a later run.
 * Topics and folders are listed before the groups, so whatever a running rebuild created by then belongs to a group
 * with a member (between two passes of one, another may remove the finished pass, which it no longer needs).
 * Housekeeping: a failure is logged and never fails the rebuild.
 */
final class RebuildLeftovers {

    /** What one sweep did: the earlier rebuilds removed, and those left because a group of theirs still has members. */
    record Sweep(List<String> removed, List<String> withMembers) {

        static final Sweep NOTHING = new Sweep(List.of(), List.of());
    }

    private static final Logger log = LoggerFactory.getLogger(RebuildLeftovers.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    private static final List<String> PASS_SUFFIXES = List.of("", "-notices", "-reads");

    private final Admin admin;
    private final Pattern rebuildName;
    private final Path stateDir;

    /**
     * @param prefix {@code <application>-rebuild-}, the start of every rebuild's names; a rebuild's id is the prefix
     *               and its stamp, {@code yyyyMMdd-HHmmssSSS}, and its groups that id and {@code -notices}, {@code -reads}
     */
    RebuildLeftovers(Admin admin, String prefix, Path stateDir) {
        this.admin = admin;
        this.rebuildName = Pattern.compile(Pattern.quote(prefix) + "\\d{8}-\\d{9}(-.+)?");
        this.stateDir = stateDir;
    }

    /**
     * Removes what the earlier rebuilds that are certainly over left; {@code own} (the running rebuild's id) is never
     * touched. Best effort: a failure is logged, and the rest is left for a later run.
     */
    Sweep remove(String own) throws InterruptedException {
        try {
            return sweep(own);
        } catch (RuntimeException e) {
            log.warn("could not remove what interrupted rebuilds left; a later rebuild tries again: {}", e.toString());
            return Sweep.NOTHING;
        }
    }

    private Sweep sweep(String own) throws InterruptedException {
        List<String> topics = get(admin.listTopics().names()).stream().filter(this::isRebuildName).toList();
        List<String> folders = folders();
        List<String> groups = get(admin.listGroups().all()).stream().map(GroupListing::groupId).filter(this::isRebuildName).toList();
        TreeSet<String> rebuilds = new TreeSet<>();
        Stream.of(groups, topics, folders).flatMap(List::stream).map(this::rebuildOf).forEach(rebuilds::add);
        rebuilds.remove(own);
        List<String> removed = new ArrayList<>();
        List<String> withMembers = new ArrayList<>();
        for (String rebuild : rebuilds) {
            List<String> itsGroups = groups.stream()
                    .filter(group -> group.startsWith(rebuild) && PASS_SUFFIXES.contains(group.substring(rebuild.length()))).toList();
            if (hasMembers(itsGroups) || !deleteGroups(itsGroups)) {
                withMembers.add(rebuild);
                continue;
            }
            deleteTopics(topics.stream().filter(topic -> topic.startsWith(rebuild + "-")).toList());
            folders.stream().filter(folder -> folder.startsWith(rebuild)).forEach(folder -> deleteFolder(stateDir.resolve(folder)));
            removed.add(rebuild);
        }
        if (!removed.isEmpty()) log.info("removed what interrupted rebuilds left: {}", removed);
        if (!withMembers.isEmpty()) log.info("left for a later run, as their groups still have members: {}", withMembers);
        return new Sweep(removed, withMembers);
    }

    private boolean isRebuildName(String name) {
        return rebuildName.matcher(name).matches();
    }

    /** The rebuild's id: the name up to the end of the stamp. */
    private String rebuildOf(String name) {
        Matcher matcher = rebuildName.matcher(name);
        if (!matcher.matches()) throw new IllegalArgumentException("not a rebuild's name: " + name);
        return matcher.group(1) == null ? name : name.substring(0, matcher.start(1));
    }

    /** A topic already gone (another rebuild's sweep) is fine. */
    private void deleteTopics(List<String> topics) throws InterruptedException {
        if (topics.isEmpty()) return;
        try {
            admin.deleteTopics(topics).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) throw new IllegalStateException("cannot delete " + topics, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot delete " + topics, e);
        }
    }

    private List<String> folders() {
        if (!Files.isDirectory(stateDir)) return List.of();
        try (Stream<Path> children = Files.list(stateDir)) {
            return children.map(child -> child.getFileName().toString()).filter(this::isRebuildName).toList();
        } catch (IOException e) {
            log.warn("cannot list {}: {}", stateDir, e.toString());
            return List.of();
        }
    }

    private boolean hasMembers(List<String> groups) throws InterruptedException {
        if (groups.isEmpty()) return false;
        Map<String, KafkaFuture<ConsumerGroupDescription>> described = admin.describeConsumerGroups(groups).describedGroups();
        for (KafkaFuture<ConsumerGroupDescription> group : described.values()) {
            try {
                if (!group.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).members().isEmpty()) return true;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof GroupIdNotFoundException)) throw new IllegalStateException("cannot describe a rebuild's group", e);
            } catch (TimeoutException e) {
                throw new IllegalStateException("cannot describe a rebuild's group", e);
            }
        }
        return false;
    }

    /** False when a group gained a member meanwhile: that rebuild is running after all. */
    private boolean deleteGroups(List<String> groups) throws InterruptedException {
        for (String group : groups) {
            try {
                admin.deleteConsumerGroups(List.of(group)).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof GroupNotEmptyException) return false;
                if (!(e.getCause() instanceof GroupIdNotFoundException)) throw new IllegalStateException("cannot delete the group " + group, e);
            } catch (TimeoutException e) {
                throw new IllegalStateException("cannot delete the group " + group, e);
            }
        }
        return true;
    }

    /** Kafka Streams' clean-up leaves the application's folder with its lock and process id behind. */
    static void deleteFolder(Path folder) {
        if (!Files.exists(folder)) return;
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(path);
        } catch (IOException e) {
            log.warn("could not delete the rebuild's state folder {}: {}", folder, e.toString());
        }
    }

    private static <T> T get(KafkaFuture<T> future) throws InterruptedException {
        try {
            return future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list or delete what earlier rebuilds left: " + e, e);
        }
    }
}
