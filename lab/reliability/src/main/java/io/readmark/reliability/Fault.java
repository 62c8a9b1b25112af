package io.readmark.reliability;

import java.util.Random;

/**
 * One kind of trouble to put a running pipeline through: a crash, an outage, a bad record. {@link #inject} causes
 * it and returns once the system is whole again (the crashed process restarted, the store back), so the soak can
 * inject faults one after another while the workload keeps flowing, and check at the end that nothing was lost.
 */
public interface Fault {

    /** A short name for the report, e.g. {@code processor-crash}. */
    String name();

    /**
     * Causes the fault and undoes it.
     *
     * @param random the run's seeded randomness, for the fault's own choices (which process, when)
     * @throws Exception if the system could not be restored: the run fails
     */
    void inject(Harness harness, Random random) throws Exception;
}
