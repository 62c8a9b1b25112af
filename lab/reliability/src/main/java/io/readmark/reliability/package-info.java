/**
 * The fault harness: runs stream processors as separate OS processes, drives a mixed workload whose exact expected
 * unread state is modelled in plain Java, injects crashes, outages and poison pills, and compares every user's
 * Redis state with the model. The integration tests run it at reduced sizes; {@code readmark soak} runs it longer.
 */
package io.readmark.reliability;
