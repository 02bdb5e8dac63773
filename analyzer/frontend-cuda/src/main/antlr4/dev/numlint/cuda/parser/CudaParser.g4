/*
 * Statement and expression grammar for one CUDA C/C++ function body (or one declaration). The file level is split
 * into declarations and function bodies by dev.numlint.cuda.TopLevelSplitter (brace matching), so one body that
 * this grammar cannot parse costs only that function. C++'s declaration/expression ambiguity is settled by
 * left-edge semantic predicates backed by a table of known type names (CudaParserBase); '<' after a name opens a
 * template argument list only when a balanced '>' follows that is followed by '(' '::' '{' or a name.
 */
parser grammar CudaParser;

options { tokenVocab = CudaLexer; superClass = CudaParserBase; }

functionBody : compoundStatement EOF ;
declarationOnly : attributeSpecifier* simpleDeclaration EOF ;

compoundStatement : LBRACE statement* RBRACE ;

statement
    : compoundStatement                                                         # blockStmt
    | IF CONSTEXPR? LPAREN condition RPAREN statement (ELSE statement)?          # ifStmt
    | SWITCH LPAREN condition RPAREN statement                                  # switchStmt
    | WHILE LPAREN condition RPAREN statement                                   # whileStmt
    | DO statement WHILE LPAREN commaExpression RPAREN SEMI                     # doStmt
    | FOR LPAREN forInit condition? SEMI commaExpression? RPAREN statement      # forStmt
    | FOR LPAREN declSpecifierSeq declarator COLON (expression | bracedInitList) RPAREN statement # rangeForStmt
    | (CASE expression | DEFAULT) COLON                                         # labelStmt
    | {isLabel()}? IDENTIFIER COLON                                             # gotoLabelStmt
    | (BREAK | CONTINUE) SEMI                                                   # jumpStmt
    | RETURN (commaExpression | bracedInitList)? SEMI                           # returnStmt
    | GOTO IDENTIFIER SEMI                                                      # gotoStmt
    | ASM (VOLATILE | GOTO | INLINE)* LPAREN balanced RPAREN SEMI               # asmStmt
    | TRY compoundStatement (CATCH LPAREN balanced RPAREN compoundStatement)+    # tryStmt
    | STATIC_ASSERT LPAREN balanced RPAREN SEMI                                 # staticAssertStmt
    | USING balancedToSemi SEMI                                                 # usingStmt
    | NAMESPACE IDENTIFIER ASSIGN balancedToSemi SEMI                           # namespaceAliasStmt
    | TYPEDEF declSpecifierSeq initDeclaratorList SEMI                          # typedefStmt
    | {macroStmtAhead()}? IDENTIFIER LPAREN balanced RPAREN SEMI?               # macroStmt
    | {declAhead()}? attributeSpecifier* simpleDeclaration                      # declStmt
    | commaExpression SEMI                                                      # exprStmt
    | SEMI                                                                      # emptyStmt
    ;

forInit
    : {declAhead()}? simpleDeclaration
    | commaExpression? SEMI
    ;

condition
    : {declAhead()}? declSpecifierSeq declarator ASSIGN expression
    | commaExpression
    ;

simpleDeclaration
    : declSpecifierSeq (initDeclarator (COMMA initDeclarator)*)? SEMI
    ;

initDeclaratorList : initDeclarator (COMMA initDeclarator)* ;

initDeclarator : declarator attributeSpecifier* initializer? ;

initializer
    : ASSIGN initializerClause
    | bracedInitList
    | LPAREN argumentList? RPAREN
    ;

initializerClause : expression | bracedInitList ;

bracedInitList : LBRACE (initItem (COMMA initItem)* COMMA?)? RBRACE ;

initItem : (DOT IDENTIFIER (LBRACKET expression RBRACKET)* ASSIGN | LBRACKET expression RBRACKET ASSIGN)? initializerClause ELLIPSIS? ;

declSpecifierSeq : declSpecifier+ ;

declSpecifier
    : storageSpecifier
    | cvQualifier
    | attributeSpecifier
    | typeSpecifier
    ;

storageSpecifier
    : STATIC | EXTERN | INLINE | REGISTER | MUTABLE | CONSTEXPR | VIRTUAL | EXPLICIT | FRIEND | THREAD_LOCAL
    | GLOBAL | DEVICE | HOST | SHARED | CONSTANT | MANAGED | FORCEINLINE | NOINLINE | EXTENSION | GRID_CONSTANT
    ;

cvQualifier : CONST | VOLATILE | RESTRICT ;

attributeSpecifier
    : GNU_ATTRIBUTE LPAREN balanced RPAREN
    | DECLSPEC LPAREN balanced RPAREN
    | ALIGN LPAREN balanced RPAREN
    | LAUNCH_BOUNDS LPAREN balanced RPAREN
    | LBRACKET LBRACKET balanced RBRACKET RBRACKET
    ;

typeSpecifier
    : builtinType+
    | (STRUCT | CLASS | UNION | ENUM (CLASS | STRUCT)?) attributeSpecifier* qualifiedName? (COLON balancedToBrace)? LBRACE balancedBraces RBRACE
    | (STRUCT | CLASS | UNION | ENUM | TYPENAME) attributeSpecifier* qualifiedName
    | DECLTYPE LPAREN balanced RPAREN
    | AUTO
    | {typeNameAhead()}? qualifiedName
    ;

builtinType : VOID | BOOL | CHAR | SHORT | INT | LONG | FLOAT | DOUBLE | SIGNED | UNSIGNED ;

qualifiedName : SCOPE? nameComponent (SCOPE TEMPLATE? nameComponent)* ;

nameComponent
    : IDENTIFIER ({templateArgsAhead()}? LT templateArgumentList? GT)?
    ;

templateArgumentList : templateArgument (COMMA templateArgument)* ;

templateArgument
    : typeId ELLIPSIS?
    | templateConstant
    ;

templateConstant
    : templateConstant (STAR | DIV | MOD) templateConstant
    | templateConstant (PLUS | MINUS) templateConstant
    | templateConstant (SHL | EQ | NE | AMP | CARET | PIPE | AND_AND | OR_OR) templateConstant
    | (MINUS | PLUS | BANG | TILDE) templateConstant
    | literal
    | TRUE
    | FALSE
    | LPAREN expression RPAREN
    | qualifiedName LPAREN argumentList? RPAREN
    | qualifiedName
    | (SIZEOF | ALIGNOF) LPAREN balanced RPAREN
    | SIZEOF ELLIPSIS LPAREN IDENTIFIER RPAREN
    ;

declarator : ptrOperator* noPtrDeclarator ;

ptrOperator
    : (STAR | AMP | AND_AND) (cvQualifier | attributeSpecifier)*
    | qualifiedName SCOPE STAR cvQualifier*
    ;

noPtrDeclarator
    : (ELLIPSIS? declaratorId | LPAREN declarator RPAREN) declaratorSuffix*
    | structuredBinding
    ;

// auto [a, b] = pair; for (const auto &[k, v] : map)
structuredBinding : LBRACKET IDENTIFIER (COMMA IDENTIFIER)* RBRACKET ;

declaratorId
    : qualifiedName
    | OPERATOR operatorName
    | TILDE IDENTIFIER
    ;

declaratorSuffix
    : LBRACKET expression? RBRACKET
    | {paramsAhead()}? LPAREN parameterList? RPAREN (cvQualifier | NOEXCEPT | attributeSpecifier | AMP | AND_AND)*
    ;

operatorName
    : LPAREN RPAREN | LBRACKET RBRACKET | NEW | DELETE | PLUS | MINUS | STAR | DIV | MOD | AMP | PIPE | CARET
    | BANG | TILDE | ASSIGN | LT | GT | LE | GE | EQ | NE | AND_AND | OR_OR | PLUS_PLUS | MINUS_MINUS | SHL | GT GT
    | STAR_ASSIGN | DIV_ASSIGN | MOD_ASSIGN | PLUS_ASSIGN | MINUS_ASSIGN | SHL_ASSIGN | GT GE | AND_ASSIGN
    | XOR_ASSIGN | OR_ASSIGN | ARROW | COMMA | typeId
    ;

parameterList : parameter (COMMA parameter)* (COMMA ELLIPSIS)? | ELLIPSIS ;

parameter : attributeSpecifier* declSpecifierSeq (declarator | abstractDeclarator)? (ASSIGN initializerClause)? ;

typeId : declSpecifierSeq abstractDeclarator? ;

abstractDeclarator
    : ptrOperator+ (LBRACKET expression? RBRACKET)*
    | (LBRACKET expression? RBRACKET)+
    | ptrOperator* LPAREN ptrOperator+ RPAREN LPAREN parameterList? RPAREN
    | ptrOperator* LPAREN abstractDeclarator RPAREN (LBRACKET expression? RBRACKET | LPAREN parameterList? RPAREN)*
    | ELLIPSIS
    ;

commaExpression : expression (COMMA expression)* ;

argumentList : argument (COMMA argument)* ;
argument : (expression | bracedInitList | typeId) ELLIPSIS? ;

expression
    : {castAhead()}? LPAREN typeId RPAREN LPAREN commaExpression RPAREN         # parenCastExpr
    | {!castAhead()}? primary                                                   # primaryExpr
    | expression LBRACKET commaExpression RBRACKET                              # indexExpr
    | expression LPAREN argumentList? RPAREN                                    # callExpr
    | expression (LAUNCH_OPEN | SHL LT) argumentList GT GT GT LPAREN argumentList? RPAREN # launchExpr
    | expression (DOT | ARROW) TEMPLATE? (qualifiedName | TILDE IDENTIFIER | OPERATOR operatorName) # memberExpr
    | expression (PLUS_PLUS | MINUS_MINUS)                                      # postIncExpr
    | expression (DOT_STAR | ARROW_STAR) expression                             # ptrMemberExpr
    | (STATIC_CAST | REINTERPRET_CAST | CONST_CAST | DYNAMIC_CAST) LT typeId GT LPAREN expression RPAREN # namedCastExpr
    | builtinType+ (LPAREN argumentList? RPAREN | bracedInitList)               # functionalCastExpr
    | <assoc = right> (PLUS_PLUS | MINUS_MINUS | PLUS | MINUS | BANG | TILDE | STAR | AMP) expression # unaryExpr
    | {castAhead()}? LPAREN typeId RPAREN bracedInitList                        # compoundLiteralExpr
    | {castAhead()}? LPAREN typeId RPAREN expression                            # castExpr
    | (SIZEOF | ALIGNOF) (LPAREN balanced RPAREN | expression | ELLIPSIS LPAREN IDENTIFIER RPAREN) # sizeofExpr
    | SCOPE? NEW (LPAREN argumentList RPAREN)? (typeId | LPAREN typeId RPAREN) (LPAREN argumentList? RPAREN | bracedInitList)? # newExpr
    | SCOPE? DELETE (LBRACKET RBRACKET)? expression                             # deleteExpr
    | NOEXCEPT LPAREN expression RPAREN                                         # noexceptExpr
    | expression (STAR | DIV | MOD) expression                                  # mulExpr
    | expression (PLUS | MINUS) expression                                      # addExpr
    | expression (SHL | GT GT) expression                                       # shiftExpr
    | expression (LT | GT | LE | GE) expression                                 # relExpr
    | expression (EQ | NE) expression                                           # eqExpr
    | expression AMP expression                                                 # bitAndExpr
    | expression CARET expression                                               # bitXorExpr
    | expression PIPE expression                                                # bitOrExpr
    | expression AND_AND expression                                             # andExpr
    | expression OR_OR expression                                               # orExpr
    | <assoc = right> expression QUESTION commaExpression COLON expression      # condExpr
    | <assoc = right> expression assignOp (expression | bracedInitList)         # assignExpr
    | THROW expression?                                                         # throwExpr
    ;

assignOp
    : ASSIGN | STAR_ASSIGN | DIV_ASSIGN | MOD_ASSIGN | PLUS_ASSIGN | MINUS_ASSIGN | SHL_ASSIGN | GT GE
    | AND_ASSIGN | XOR_ASSIGN | OR_ASSIGN
    ;

primary
    : literal                                                                   # literalPrimary
    | STRING_LITERAL (STRING_LITERAL | IDENTIFIER)*                             # stringPrimary
    | (THIS | TRUE | FALSE | NULLPTR)                                           # keywordPrimary
    | LPAREN commaExpression RPAREN                                             # parenPrimary
    | LPAREN compoundStatement RPAREN                                           # stmtExprPrimary
    | lambda                                                                    # lambdaPrimary
    | qualifiedName bracedInitList                                              # bracedCtorPrimary
    | (TYPENAME)? qualifiedName                                                 # namePrimary
    | OPERATOR operatorName                                                     # operatorPrimary
    ;

literal : INTEGER_LITERAL | FLOATING_LITERAL | CHAR_LITERAL ;

lambda
    : LBRACKET balancedBrackets RBRACKET (DEVICE | HOST | attributeSpecifier)* (LPAREN parameterList? RPAREN)?
      (DEVICE | HOST | MUTABLE | CONSTEXPR | NOEXCEPT | attributeSpecifier)* (ARROW typeId)? compoundStatement
    ;

// token soup for constructs we skip (attributes, asm operands, static_assert): balanced parentheses
balanced : (~(LPAREN | RPAREN) | LPAREN balanced RPAREN)* ;
balancedBrackets : (~(LBRACKET | RBRACKET) | LBRACKET balancedBrackets RBRACKET)* ;
balancedBraces : (~(LBRACE | RBRACE) | LBRACE balancedBraces RBRACE)* ;
balancedToSemi : (~(SEMI | LBRACE | RBRACE))* ;
balancedToBrace : (~(SEMI | LBRACE | RBRACE))+? ;
