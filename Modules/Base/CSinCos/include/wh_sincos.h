#ifndef WH_SINCOS_H
#define WH_SINCOS_H

// The sine and cosine of one angle in one call (glibc's sincos, a GNU
// extension Swift's Glibc module does not show): the spatial index takes
// both of a million latitudes and longitudes when it loads, and two calls
// each cost it a tenth of the load.
void wh_sincos(double x, double *sine, double *cosine);

#endif
