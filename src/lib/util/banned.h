/*
 * Functions assay code must not call (git's banned.h): unbounded copies, locale-fragile parsing
 * and process-wide side effects. Included last in every .c file of the library and CLI.
 */
#ifndef ASSAY_BANNED_H
#define ASSAY_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef system
#define system(x) BANNED(system)

#endif
