/* Patched entry points ("static keys"): an exported function whose body
 * without a tool is a lone `ret`, and whose first byte a tool's start turns
 * into the opcode of a `jmp rel32` to its variant with the events (the four
 * bytes of the displacement follow the `ret` from the start, so switching
 * is one byte written while the process has one thread; the tool's end
 * writes the `ret` back).  For entries whose work without a tool is none at
 * all (GOMP_ordered_end): a switched pointer (PV_OMPT_SWITCHED) would cost
 * them one instruction, a test more.
 *
 * The stub is assembled here, in .text; its site is recorded in the
 * pv_ompt_patch section, which pv_ompt_patch_sites walks.  Reached by a
 * jump, `told` has the entry's return address and CFA as its own. */
#ifndef PV_OMPT_PATCH_H
#define PV_OMPT_PATCH_H

#include <stdbool.h>

#define PV_PATCH_RET 0xc3    /* the body without a tool */
#define PV_PATCH_JMP 0xe9    /* jmp rel32: the body with one */

/* Point every patched entry at its told variant (on) or back at `ret`.
 * False, after one warning on stderr, if the text could not be made
 * writable; the entries then stay as they were. */
bool pv_ompt_patch_sites(bool on);

/* The patched bytes of the entry point `name` (for the tests). */
const unsigned char *pv_ompt_patch_site(const char *name);

#define PV_OMPT_PATCH_STR_(x) #x
#define PV_OMPT_PATCH_STR(x) PV_OMPT_PATCH_STR_(x)
/* After the definition of `told` (static, marked used: only the asm calls
 * it).  Without OMPT the entry is an empty function. */
#ifdef PVOMP_NO_OMPT
#define PV_OMPT_PATCHED(name, told)                                                    \
    static void (*const name##_told)(void) __attribute__((unused)) = told;              \
    PV_EXPORT void name(void)                                                          \
    {                                                                                  \
    }
#else
#define PV_OMPT_PATCHED(name, told)                                                    \
    __asm__(".pushsection .text\n"                                                     \
            ".balign 16\n"                                                             \
            ".globl " #name "\n"                                                       \
            ".type " #name ", @function\n" #name ":\n.L" #name "_site:\n"             \
            ".byte " PV_OMPT_PATCH_STR(PV_PATCH_RET) "\n"                              \
            ".long " #told " - . - 4\n"                                                \
            ".size " #name ", 5\n"                                                     \
            ".popsection\n"                                                            \
            ".pushsection pv_ompt_patch, \"aw\"\n"                                     \
            ".balign 8\n"                                                              \
            ".quad .L" #name "_site\n"                                                      \
            ".quad .L" #name "_name\n"                                           \
            ".popsection\n"                                                            \
            ".pushsection .rodata\n.L" #name "_name: .asciz \"" #name "\"\n"       \
            ".popsection\n")
#endif

#endif
