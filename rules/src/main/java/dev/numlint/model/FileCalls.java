package dev.numlint.model;

import java.util.List;

/**
 * The calls of one file of the scanned tree that a front end read whole, as a typed fact of the scan
 * ({@link dev.numlint.spi.ScanContext#addCalls}): the front ends' reviews judge a finding that holds only where a
 * function's callers pass values in range by every call the program makes (a conversion of a parameter that no
 * caller passes negative). A file that has a {@code FileCalls} has every call, and every other use of a function's
 * name, in {@link #calls}; a file without one was not read this way, and any call in it is unknown.
 *
 * @param file  the file, a path as the scan relativizes it
 * @param calls its calls of named functions and the other uses of their names, in source order
 */
public record FileCalls(String file, List<Call> calls) {
    public FileCalls {
        calls = List.copyOf(calls);
    }

    /**
     * One call, or another use of a function's name.
     *
     * @param line     the line of the call
     * @param function the callee's identity across the files of the scan (Clang's unified symbol name), or null where
     *                 the name is not resolved to one function (an overload set a template names)
     * @param name     the callee's name as written, without qualifier
     * @param lows     for a call, the least value of each argument, in order (null where it has no lower bound, or is
     *                 no number); null for a use of the name that is no call with one argument per parameter (its
     *                 address taken, an unresolved name): the function's callers are then not all known
     */
    public record Call(int line, String function, String name, List<Double> lows) {
        public Call {
            lows = lows == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(lows));
        }
    }
}
