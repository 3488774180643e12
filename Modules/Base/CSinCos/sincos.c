#define _GNU_SOURCE
#include <math.h>

#include "wh_sincos.h"

void wh_sincos(double x, double *sine, double *cosine) { sincos(x, sine, cosine); }
