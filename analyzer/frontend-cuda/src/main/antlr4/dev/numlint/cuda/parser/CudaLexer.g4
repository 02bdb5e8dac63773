/*
 * Lexer for the C/C++ subset that CUDA sources use. Preprocessor directives are single DIRECTIVE tokens (with
 * line continuations); the preprocessor (dev.numlint.cuda.Preprocessor) interprets them. Comments and white space
 * are skipped. '>' is always a single token so that template argument lists close with '>' '>' and shifts are
 * recognised by the parser; '<<<' is one token for kernel launches.
 */
lexer grammar CudaLexer;

DIRECTIVE : '#' ( ~[\r\n\\/] | '\\' '\r'? '\n' | '\\' ~[\r\n] | '/*' .*? '*/' | '/' ~[/*\r\n] )* ;

// types and type-ish keywords
AUTO : 'auto' ; BOOL : 'bool' ; CHAR : 'char' ; DOUBLE : 'double' ; FLOAT : 'float' ; INT : 'int' ;
LONG : 'long' ; SHORT : 'short' ; SIGNED : 'signed' | '__signed__' ; UNSIGNED : 'unsigned' ; VOID : 'void' ;
CONST : 'const' ; VOLATILE : 'volatile' | '__volatile__' | '__volatile' ; STATIC : 'static' ; EXTERN : 'extern' ; INLINE : 'inline' | '__inline__' | '__inline' ;
REGISTER : 'register' ; MUTABLE : 'mutable' ; CONSTEXPR : 'constexpr' ; VIRTUAL : 'virtual' ; EXPLICIT : 'explicit' ;
FRIEND : 'friend' ; THREAD_LOCAL : 'thread_local' ;
STRUCT : 'struct' ; CLASS : 'class' ; UNION : 'union' ; ENUM : 'enum' ; TYPENAME : 'typename' ;
TEMPLATE : 'template' ; TYPEDEF : 'typedef' ; USING : 'using' ; NAMESPACE : 'namespace' ; OPERATOR : 'operator' ;
PUBLIC : 'public' ; PRIVATE : 'private' ; PROTECTED : 'protected' ;
DECLTYPE : 'decltype' | '__typeof__' | '__typeof' | 'typeof' ;
// statements
IF : 'if' ; ELSE : 'else' ; FOR : 'for' ; WHILE : 'while' ; DO : 'do' ; SWITCH : 'switch' ; CASE : 'case' ;
DEFAULT : 'default' ; BREAK : 'break' ; CONTINUE : 'continue' ; RETURN : 'return' ; GOTO : 'goto' ;
TRY : 'try' ; CATCH : 'catch' ; THROW : 'throw' ;
// expressions
SIZEOF : 'sizeof' ; ALIGNOF : 'alignof' | '__alignof__' ; NEW : 'new' ; DELETE : 'delete' ; THIS : 'this' ;
TRUE : 'true' ; FALSE : 'false' ; NULLPTR : 'nullptr' ; NOEXCEPT : 'noexcept' ;
STATIC_CAST : 'static_cast' ; REINTERPRET_CAST : 'reinterpret_cast' ; CONST_CAST : 'const_cast' ;
DYNAMIC_CAST : 'dynamic_cast' ; STATIC_ASSERT : 'static_assert' ;
// CUDA and compiler extensions
GLOBAL : '__global__' ; DEVICE : '__device__' ; HOST : '__host__' ; SHARED : '__shared__' ;
CONSTANT : '__constant__' ; MANAGED : '__managed__' ; RESTRICT : '__restrict__' | '__restrict' | 'restrict' ;
FORCEINLINE : '__forceinline__' ; NOINLINE : '__noinline__' ; LAUNCH_BOUNDS : '__launch_bounds__' ;
GNU_ATTRIBUTE : '__attribute__' | '__attribute' ; DECLSPEC : '__declspec' ; ALIGN : '__align__' | 'alignas' ;
ASM : 'asm' | '__asm__' | '__asm' ; EXTENSION : '__extension__' ;
GRID_CONSTANT : '__grid_constant__' ;

LAUNCH_OPEN : '<<<' ;
ELLIPSIS : '...' ; ARROW : '->' ; ARROW_STAR : '->*' ; DOT_STAR : '.*' ; SCOPE : '::' ;
PLUS_PLUS : '++' ; MINUS_MINUS : '--' ; SHL : '<<' ; LE : '<=' ; GE : '>=' ; EQ : '==' ; NE : '!=' ;
AND_AND : '&&' ; OR_OR : '||' ;
STAR_ASSIGN : '*=' ; DIV_ASSIGN : '/=' ; MOD_ASSIGN : '%=' ; PLUS_ASSIGN : '+=' ; MINUS_ASSIGN : '-=' ;
SHL_ASSIGN : '<<=' ; AND_ASSIGN : '&=' ; XOR_ASSIGN : '^=' ; OR_ASSIGN : '|=' ;
LPAREN : '(' ; RPAREN : ')' ; LBRACKET : '[' ; RBRACKET : ']' ; LBRACE : '{' ; RBRACE : '}' ;
LT : '<' ; GT : '>' ; ASSIGN : '=' ; PLUS : '+' ; MINUS : '-' ; STAR : '*' ; DIV : '/' ; MOD : '%' ;
AMP : '&' ; PIPE : '|' ; CARET : '^' ; BANG : '!' ; TILDE : '~' ; QUESTION : '?' ; COLON : ':' ;
SEMI : ';' ; COMMA : ',' ; DOT : '.' ; HASH_HASH : '##' ; HASH : '#' ; BACKSLASH : '\\' ;
// C++'s alternative tokens (ISO 646; in C the macros of <iso646.h>): the operator, with its usual spelling
ALT_AND : 'and' { setType(AND_AND); setText("&&"); } ;
ALT_OR : 'or' { setType(OR_OR); setText("||"); } ;
ALT_NOT : 'not' { setType(BANG); setText("!"); } ;

// a user-defined literal's suffix (1.0_rr, 10_km) stays in the number's token, as in C++'s pp-number (and the fast
// lexer): its type is what the literal operator returns, not the number's
FLOATING_LITERAL
    : ( DIGITS '.' DIGITS? EXPONENT? | '.' DIGITS EXPONENT? | DIGITS EXPONENT ) ( [fFlL]? | UD_SUFFIX )
    | DIGITS [fF]   // not standard C, but accepted leniently
    | '0' [xX] HEXDIGITS ('.' HEXDIGITS?)? [pP] [+-]? DIGITS [fFlL]?
    ;
INTEGER_LITERAL
    : ( '0' [xX] HEXDIGITS | '0' [bB] [01']+ | DIGITS ) ( INT_SUFFIX? | UD_SUFFIX )
    ;
fragment UD_SUFFIX : '_' [A-Za-z0-9_]* ;
fragment DIGITS : [0-9] ( '\''? [0-9] )* ;
fragment HEXDIGITS : [0-9a-fA-F] ( '\''? [0-9a-fA-F] )* ;
fragment EXPONENT : [eE] [+-]? DIGITS ;
fragment INT_SUFFIX : [uU] ( [lL] [lL]? )? | [lL] [lL]? [uU]? | [uU]? [zZ] | [zZ] [uU] ;

CHAR_LITERAL : ( 'u8' | [uUL] )? '\'' ( ~['\\\r\n] | '\\' . )* '\'' ;
STRING_LITERAL : ( 'u8' | [uUL] )? '"' ( ~["\\\r\n] | '\\' . | '\\' '\r'? '\n' )* '"'
               | ( 'u8' | [uUL] )? 'R"' .*? '"' ;

// a name may be split by backslash-newline (line splicing happens before tokenization)
IDENTIFIER : [a-zA-Z_$] ( [a-zA-Z_0-9$] | '\\' '\r'? '\n' [a-zA-Z_0-9$] )* ;

LINE_CONTINUATION : '\\' '\r'? '\n' -> skip ;
WS : [ \t\r\n\f\u000B]+ -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
LINE_COMMENT : '//' ( ~[\r\n\\] | '\\' '\r'? '\n' | '\\' )* -> skip ;
UNKNOWN : . ;
