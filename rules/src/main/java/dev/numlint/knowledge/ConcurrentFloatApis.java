package dev.numlint.knowledge;

import java.util.Set;

/**
 * The JDK APIs through which threads share a float or double sum (NL009), for the source and bytecode layers alike:
 * one list, read by the Java source check and the SpotBugs detector. Pure and without dependencies: the SpotBugs
 * plugin carries a copy of this package in its jar. Names are method names (simple class names where a class is
 * meant); each layer matches them against what it sees (a resolved call, or an invoke instruction's owner).
 */
public final class ConcurrentFloatApis {
    /** Compare-and-set and update methods of the atomics; with float bits, a loop of them is a shared float sum. */
    public static final Set<String> COMPARE_AND_SET = Set.of(
            "compareAndSet",
            "weakCompareAndSet",
            "weakCompareAndSetPlain",
            "weakCompareAndSetVolatile",
            "weakCompareAndSetAcquire",
            "weakCompareAndSetRelease",
            "compareAndExchange",
            "updateAndGet",
            "getAndUpdate",
            "accumulateAndGet",
            "getAndAccumulate");

    /** The atomics (java.util.concurrent.atomic) that hold float or double bits in a compare-and-set loop. */
    public static final Set<String> BIT_HOLDERS =
            Set.of("AtomicInteger", "AtomicIntegerArray", "AtomicLong", "AtomicLongArray");

    /** Float/double to bits ({@code Float.floatToIntBits} ...). */
    public static final Set<String> TO_BITS =
            Set.of("floatToIntBits", "floatToRawIntBits", "doubleToLongBits", "doubleToRawLongBits");

    /** Bits back to float/double. */
    public static final Set<String> FROM_BITS = Set.of("intBitsToFloat", "longBitsToDouble");

    /** Reads of a {@code DoubleAdder}'s sum ({@code get} is not one of its methods). */
    public static final Set<String> ADDER_READS =
            Set.of("sum", "sumThenReset", "doubleValue", "floatValue", "intValue", "longValue");

    /** Reads of a {@code DoubleAccumulator}'s value. */
    public static final Set<String> ACCUMULATOR_READS =
            Set.of("get", "getThenReset", "doubleValue", "floatValue", "intValue", "longValue");

    /** Reads that truncate the sum to an integer: one ulp can change the result. */
    public static final Set<String> TRUNCATING_READS = Set.of("intValue", "longValue");

    /** Terminal operations of a {@code DoubleStream} that add its elements. */
    public static final Set<String> STREAM_SUMS = Set.of("sum", "average", "summaryStatistics");

    /** {@code Collectors} that add doubles. */
    public static final Set<String> SUMMING_COLLECTORS =
            Set.of("summingDouble", "averagingDouble", "summarizingDouble");

    /**
     * Methods that run their argument (a lambda, a Runnable or Callable) on another thread: executors, fork/join
     * pools, CompletableFuture.
     */
    public static final Set<String> SUBMIT = Set.of(
            "submit",
            "execute",
            "invoke",
            "invokeAll",
            "invokeAny",
            "schedule",
            "scheduleAtFixedRate",
            "scheduleWithFixedDelay",
            "runAsync",
            "supplyAsync",
            "thenRunAsync",
            "thenAcceptAsync",
            "thenApplyAsync");

    /** Superclasses whose {@code run}/{@code compute} runs as a task of a pool or a thread. */
    public static final Set<String> TASK_SUPERCLASSES =
            Set.of("RecursiveAction", "RecursiveTask", "CountedCompleter", "Thread", "ForkJoinTask");

    /** Interfaces whose {@code run}/{@code call} an executor or a thread runs. */
    public static final Set<String> TASK_INTERFACES = Set.of("Runnable", "Callable");

    /** The methods of a task class that hold the task's body. */
    public static final Set<String> TASK_METHODS = Set.of("run", "call", "compute");

    private ConcurrentFloatApis() {}
}
