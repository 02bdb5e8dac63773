package dev.numlint.spi;

import dev.numlint.model.Finding;
import dev.numlint.model.Notification;

/** Where analyzers report. Thread-safe. */
public interface FindingSink {
    /**
     * Report a finding. A builder whose level is unset gets the rule's effective level (catalog default or
     * configured); findings of disabled rules are dropped here.
     */
    void report(Finding.Builder finding);

    void notify(Notification notification);
}
