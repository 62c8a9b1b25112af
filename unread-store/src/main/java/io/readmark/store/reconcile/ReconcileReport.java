package io.readmark.store.reconcile;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a reconcile found: how much it scanned, how many users drifted (each user counted once per kind it showed),
 * some examples, and with {@code --repair} how many of those users a re-check found clean afterwards.
 *
 * @param ignoredKeys keys that matched a scan pattern but are not this prefix's canonical key names
 */
public record ReconcileReport(long usersScanned, long keysScanned, long ignoredKeys, Map<DriftKind, Long> usersByKind,
                              long usersDrifted, boolean repaired, long usersRepaired, List<Drift> examples,
                              Duration elapsed) {

    /** True when no drift is left: none was found, or every drifted user was repaired and re-checked clean. */
    public boolean clean() {
        return usersDrifted == (repaired ? usersRepaired : 0);
    }

    /** Users scanned per second. */
    public double usersPerSecond() {
        double seconds = elapsed.toNanos() / 1e9;
        return seconds > 0 ? usersScanned / seconds : 0;
    }
}
