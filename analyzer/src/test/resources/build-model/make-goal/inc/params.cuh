#define PARAM 3
