package dev.numlint.ptx.checks;

import dev.numlint.ptx.rules.PtxMessage;

/**
 * Message templates of the PTX layer: catalog keys {@code ptx-*} of each rule ({@link PtxMessage} quotes the
 * instructions). A hit's message is the typed {@link PtxMessage} ({@link #message}); a part of it (a cause, a loop)
 * is rendered text ({@link #format}).
 */
final class PtxMessages {
    private PtxMessages() {}

    /** A hit's message: {@code ruleId}'s template {@code key} with {@code args} (placeholder name, value, ...). */
    static PtxMessage message(String ruleId, String key, Object... args) {
        return PtxMessage.of(ruleId, key, args);
    }

    /** A part of a message, rendered. */
    static String format(String ruleId, String key, Object... args) {
        return PtxMessage.of(ruleId, key, args).text();
    }
}
