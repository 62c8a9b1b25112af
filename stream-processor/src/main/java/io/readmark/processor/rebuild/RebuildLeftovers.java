package io.readmark.processor.rebuild;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
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
import java.util.stream.Stream;

/**
 * What earlier rebuilds of this application left behind when they were killed before their clean-up (SIGKILL, a lost
 * host): their consumer groups, internal topics and local state folders, all named {@code <application>-rebuild-<stamp>}
 * and something. A rebuild removes them at its start and again at its end, so no run needs a manual clean-up.
 *
 * <p>Only an earlier rebuild none of whose groups has a member is removed. One with members is running elsewhere, or
 * was killed less than a session timeout ago (its member is not known to be gone yet); it is left for a later run.
 */
final class RebuildLeftovers {

    /** What one sweep did: the earlier rebuilds removed, and those left because a group of theirs still has members. */
    record Sweep(List<String> removed, List<String> stillRunning) {
    }

    private static final Logger log = LoggerFactory.getLogger(RebuildLeftovers.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    private static final List<String> PASS_SUFFIXES = List.of("", "-notices", "-reads");

    private final Admin admin;
    private final String prefix;
    private final int stampLength;
    private final Path stateDir;

    /**
     * @param prefix      {@code <application>-rebuild-}, the start of every rebuild's names
     * @param stampLength the length of the stamp after it, which makes a rebuild's own id
     */
    RebuildLeftovers(Admin admin, String prefix, int stampLength, Path stateDir) {
        this.admin = admin;
        this.prefix = prefix;
        this.stampLength = stampLength;
        this.stateDir = stateDir;
    }

    /** Removes what the earlier rebuilds that are certainly over left; {@code own} (the running rebuild's id) is never touched. */
    Sweep remove(String own) throws InterruptedException {
        List<String> groups = get(admin.listGroups().all()).stream().map(GroupListing::groupId).filter(this::isRebuildName).toList();
        List<String> topics = get(admin.listTopics().names()).stream().filter(this::isRebuildName).toList();
        List<String> folders = folders();
        TreeSet<String> rebuilds = new TreeSet<>();
        Stream.of(groups, topics, folders).flatMap(List::stream).map(this::rebuildOf).forEach(rebuilds::add);
        rebuilds.remove(own);
        List<String> removed = new ArrayList<>();
        List<String> stillRunning = new ArrayList<>();
        for (String rebuild : rebuilds) {
            List<String> itsGroups = groups.stream()
                    .filter(group -> group.startsWith(rebuild) && PASS_SUFFIXES.contains(group.substring(rebuild.length()))).toList();
            if (hasMembers(itsGroups) || !deleteGroups(itsGroups)) {
                stillRunning.add(rebuild);
                continue;
            }
            List<String> itsTopics = topics.stream().filter(topic -> topic.startsWith(rebuild + "-")).toList();
            if (!itsTopics.isEmpty()) get(admin.deleteTopics(itsTopics).all());
            folders.stream().filter(folder -> folder.startsWith(rebuild)).forEach(folder -> deleteFolder(stateDir.resolve(folder)));
            removed.add(rebuild);
        }
        if (!removed.isEmpty()) log.info("removed what interrupted rebuilds left: {}", removed);
        if (!stillRunning.isEmpty()) log.info("left for a later run, as their groups still have members: {}", stillRunning);
        return new Sweep(removed, stillRunning);
    }

    private boolean isRebuildName(String name) {
        return name.startsWith(prefix) && name.length() >= prefix.length() + stampLength;
    }

    private String rebuildOf(String name) {
        return name.substring(0, prefix.length() + stampLength);
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
