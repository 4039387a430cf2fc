/* The constants of the Lanczos and Bohman windows' kernel (sinc_pass.h), printed by
 * tools/gen_sinc_coeffs.py (mpmath, 400 bits) and checked against mpmath by the
 * tests through crtrig_test_sinc_constant (window_sinc.c). */
#include "window_sinc.h"

/* 1/pi within 2^-106 (relative). */
const double CRTRIG_SINC_INV_PI[2] = {0x1.45f306dc9c883p-2, -0x1.6b01ec5417056p-56};

/* b_j = (-1)^j (2j + 2) pi^(2j+2)/(2j + 3)!, j = 0 .. 9, each {RN(b_j), RN(b_j - hi)}. */
const double CRTRIG_BOHMAN_C[10][2] = {
    {0x1.a51a6625307d3p+1, 0x1.1873d8912200cp-54},    /* j=0: pi^2/3 */
    {-0x1.9f9cb402bc46cp+1, -0x1.487acd8cd312cp-53},  /* j=1: -pi^4/30 */
    {0x1.24feab558a48dp+0, 0x1.0b6b4a765d087p-55},    /* j=2 */
    {-0x1.ac6805cf350a6p-3, -0x1.7494ad340e176p-58},  /* j=3 */
    {0x1.8061c54d78996p-6, 0x1.e920d7643f241p-61},    /* j=4 */
    {-0x1.d2eaa6f80d5a0p-10, 0x1.a9b606f0a2b74p-66},  /* j=5 */
    {0x1.99a005b794486p-14, -0x1.776363f93ef54p-68},  /* j=6 */
    {-0x1.0fc992ff39e13p-18, -0x1.c9302ba499e77p-72}, /* j=7 */
    {0x1.1a5c8a4f71dddp-23, 0x1.48028a3ab367fp-77},   /* j=8 */
    {-0x1.d7d6a8252af65p-29, 0x1.6c10419d7dd45p-85},  /* j=9 */
};
