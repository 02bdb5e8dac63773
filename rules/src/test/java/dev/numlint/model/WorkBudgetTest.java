package dev.numlint.model;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkBudgetTest {
    @AfterEach
    void stop() {
        WorkBudget.stop();
    }

    @Test
    void aMeterOfASpentBudgetThrowsWithinOneRoundOfChecks() {
        WorkBudget.start(0);
        WorkBudget.Meter m = WorkBudget.meter();
        assertThatThrownBy(() -> {
                    for (int i = 0; i < 2048; i++) m.check();
                })
                .isInstanceOf(WorkBudget.Exceeded.class);
        // spent for the thread: the plain check throws at once, and so does the meter
        assertThatThrownBy(WorkBudget::check).isInstanceOf(WorkBudget.Exceeded.class);
        assertThatThrownBy(m::check).isInstanceOf(WorkBudget.Exceeded.class);
    }

    @Test
    void aMeterWithoutABudgetOrWithTimeLeftDoesNothing() {
        WorkBudget.Meter none = WorkBudget.meter();
        WorkBudget.start(Long.MAX_VALUE / 4);
        WorkBudget.Meter ample = WorkBudget.meter();
        assertThatCode(() -> {
                    for (int i = 0; i < 4096; i++) {
                        none.check();
                        ample.check();
                    }
                })
                .doesNotThrowAnyException();
    }
}
