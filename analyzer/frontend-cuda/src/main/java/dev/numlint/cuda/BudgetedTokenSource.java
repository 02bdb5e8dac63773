package dev.numlint.cuda;

import java.util.List;
import org.antlr.v4.runtime.ListTokenSource;
import org.antlr.v4.runtime.Token;

/** The tokens of a function body for the parser, checking the per-file budget as the parser reads them. */
final class BudgetedTokenSource extends ListTokenSource {
    BudgetedTokenSource(List<? extends Token> tokens) {
        super(tokens);
    }

    @Override
    public Token nextToken() {
        dev.numlint.model.WorkBudget.check();
        return super.nextToken();
    }
}
