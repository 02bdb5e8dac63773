/*
 * PTX (Parallel Thread Execution) as emitted by nvcc 11-13 (PTX ISA up to 9.x).
 *
 * The grammar is deliberately generic: an instruction is "guard? opcode .modifier* operands ;", so opcodes this
 * grammar does not know still parse. Module-level items are parsed one at a time (rule topItem) so that a
 * caller can stream a large file through an unbuffered token stream and recover per function.
 * The package comes from the directory layout (antlr4-maven-plugin).
 */
grammar Ptx;

// ---------------------------------------------------------------------------------------------------- parser

/** A whole module (used by tests and small inputs); the analyzer calls topItem repeatedly instead. */
module : topItem* EOF ;

topItem
    : versionDirective
    | targetDirective
    | addressSizeDirective
    | fileDirective
    | sectionDirective
    | pragmaDirective
    | functionDecl
    | variableDecl
    | genericDirective
    | ';'
    ;

versionDirective : VERSION (DEC_FLOAT | INT) ;
targetDirective  : TARGET targetName (',' targetName)* ;
targetName       : ID ;
addressSizeDirective : ADDRESS_SIZE INT ;
fileDirective    : FILE INT STRING (',' INT)* ;
sectionDirective : SECTION DOTID '{' sectionItem* '}' ;
sectionItem      : ~('{' | '}') | '{' sectionItem* '}' ;
pragmaDirective  : PRAGMA STRING (',' STRING)* ';' ;
/** Any other dotted directive up to ';' (.alias, .callprototype, .branchtargets, ...). */
genericDirective : (DOTID | CALLPROTOTYPE | CALLTARGETS) (~(';' | '{' | '}'))* ';' ;

linkage : VISIBLE | EXTERN | WEAK | COMMON ;

functionDecl
    : functionHead (functionBody | ';')
    ;
// The reader parses a function's head with this rule and then its body one statement at a time (PtxReader), so
// the parse tree of a huge function never exists as a whole.
functionHead
    : linkage* kind=(ENTRY | FUNC) funcAttr* returnParams=paramList? name=ID funcAttr* params=paramList? funcAttr*
    ;
funcAttr
    : MAXNTID INT (',' INT)*
    | REQNTID INT (',' INT)*
    | MINNCTAPERSM INT
    | MAXNREG INT
    | NORETURN
    | PRAGMA STRING (',' STRING)* ';'
    | DOTID (INT (',' INT)*)?
    | DOTID '(' (~')')* ')'
    ;
paramList : '(' (paramDecl (',' paramDecl)*)? ')' ;
paramDecl : space=(PARAM | REG) declSpec* name=ID? arraySuffix* ;

declSpec
    : ALIGN INT
    | PTR
    | DOTID '(' declSpec* ')'
    | DOTID
    | GLOBAL | SHARED | LOCAL | CONST | PARAM | TEX
    ;
arraySuffix : '[' INT? ']' ;

variableDecl : linkage* space=(GLOBAL | SHARED | LOCAL | CONST | TEX | PARAM) declSpec* varItem (',' varItem)* ';' ;
varItem      : name=ID ('<' count=INT '>')? arraySuffix* ('=' initializer)? ;
initializer
    : '{' (initializer (',' initializer)*)? '}'
    | ID '(' expr ')' (offsetOp+=('+' | '-') offset+=term)*
    | expr
    ;

regDecl  : REG declSpec* regItem (',' regItem)* ';' ;
regItem  : name=(REGISTER | ID) ('<' count=INT '>')? arraySuffix* ;

functionBody : '{' statement* '}' ;

statement
    : label=ID ':'
    | locDirective
    | pragmaDirective
    | regDecl
    | variableDecl
    | instruction
    | '{' statement* '}'
    | genericDirective
    | FILE INT STRING (',' INT)*
    ;

locDirective : LOC file=INT line=INT col=INT (',' locAttr)* ;
locAttr
    : ID ID                         // function_name $L__info_string0
    | ID INT INT INT                // inlined_at 1 23 4
    | ID
    ;

instruction : guard? opcode=ID modifier* (operand (',' operand)*)? ';' ;
guard       : '@' neg='!'? pred=(REGISTER | ID) ;
modifier    : DOTID | GLOBAL | SHARED | LOCAL | CONST | PARAM | TEX | ALIGN ;

operand
    : '(' (operand (',' operand)*)? ')'         # parenOperand
    | '{' (operand (',' operand)*)? '}'         # vectorOperand
    | '[' operand (',' operand)* ']'            # addressOperand
    | '!' operand                               # notOperand
    | (REGISTER | ID) '|' (REGISTER | ID)         # predPairOperand
    | expr                                      # exprOperand
    ;

expr : term (op+=('+' | '-') term)* ;
term
    : REGISTER DOTID?       # registerTerm
    | ID                    # symbolTerm
    | sign='-'? INT         # intTerm
    | sign='-'? HEX_FLOAT   # hexFloatTerm
    | sign='-'? DEC_FLOAT   # decFloatTerm
    | '(' expr ')'          # parenTerm
    ;

// ---------------------------------------------------------------------------------------------------- lexer

VERSION       : '.version' ;
TARGET        : '.target' ;
ADDRESS_SIZE  : '.address_size' ;
FILE          : '.file' ;
LOC           : '.loc' ;
SECTION       : '.section' ;
PRAGMA        : '.pragma' ;
ENTRY         : '.entry' ;
FUNC          : '.func' ;
VISIBLE       : '.visible' ;
EXTERN        : '.extern' ;
WEAK          : '.weak' ;
COMMON        : '.common' ;
REG           : '.reg' ;
GLOBAL        : '.global' ;
SHARED        : '.shared' ;
LOCAL         : '.local' ;
CONST         : '.const' ;
PARAM         : '.param' ;
TEX           : '.tex' ;
ALIGN         : '.align' ;
PTR           : '.ptr' ;
MAXNTID       : '.maxntid' ;
REQNTID       : '.reqntid' ;
MINNCTAPERSM  : '.minnctapersm' ;
MAXNREG       : '.maxnreg' ;
NORETURN      : '.noreturn' ;
CALLPROTOTYPE : '.callprototype' ;
CALLTARGETS   : '.calltargets' ;

HEX_FLOAT : '0' [fFdD] [0-9a-fA-F]+ ;
DEC_FLOAT : [0-9]+ '.' [0-9]+ ([eE] [+-]? [0-9]+)? | [0-9]+ [eE] [+-]? [0-9]+ ;
INT       : ('0' [xX] [0-9a-fA-F]+ | '0' [bB] [01]+ | [0-9]+) [uU]? ;
DOTID     : '.' [a-zA-Z0-9_$]+ ('::' [a-zA-Z0-9_$]+)* ;
REGISTER  : '%' [a-zA-Z0-9_$]+ ;
ID        : [a-zA-Z_$] [a-zA-Z0-9_$]* ;
STRING    : '"' (~["\\\r\n] | '\\' .)* '"' ;

LPAREN : '(' ; RPAREN : ')' ; LBRACE : '{' ; RBRACE : '}' ; LBRACK : '[' ; RBRACK : ']' ;
COMMA : ',' ; SEMI : ';' ; COLON : ':' ; AT : '@' ; BANG : '!' ; PLUS : '+' ; MINUS : '-' ;
LT : '<' ; GT : '>' ; EQ : '=' ; PIPE : '|' ;

WS            : [ \t\r\n\f]+ -> skip ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
/** Anything else is one error token: the parser reports it with its line instead of the lexer throwing. */
OTHER         : . ;
