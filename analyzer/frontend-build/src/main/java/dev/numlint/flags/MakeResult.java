package dev.numlint.flags;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What evaluating a Makefile for one goal finds: the flags, the compiler commands, the problems, the files read. */
final class MakeResult {
    /** A problem with the input, for a notification. */
    record Problem(String file, int line, String level, String id, String message) {}

    /** One compiler command the selected configuration runs. */
    record Command(List<FlagTok> toks, List<Path> sources, String configuration, boolean nvcc) {}

    /** Flag variables evaluated for the goal: the context of sources no command of the chain names. */
    final List<FlagTok> variables = new ArrayList<>();
    /** Compiler commands of the recipes on the goal's prerequisite chain. */
    final List<Command> commands = new ArrayList<>();
    /** Flags written where the selected configuration does not go; each has its condition. */
    final List<FlagTok> unselected = new ArrayList<>();

    final List<Problem> problems = new ArrayList<>();
    /** Files read: the Makefile and what it includes. */
    final List<Path> read = new ArrayList<>();
    /** The goal and how it was chosen, e.g. "goal all (.DEFAULT_GOAL)"; null when the file has no rule. */
    String goal;
}
