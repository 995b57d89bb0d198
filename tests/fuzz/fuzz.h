/* The fuzz targets' entry points, also replayed on the regression inputs by test_fuzz. */
#ifndef ASSAY_FUZZ_H
#define ASSAY_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int assay_fuzz_json(const uint8_t *data, size_t size);
int assay_fuzz_yaml(const uint8_t *data, size_t size);
int assay_fuzz_diff(const uint8_t *data, size_t size);
int assay_fuzz_toml(const uint8_t *data, size_t size);
int assay_fuzz_ini(const uint8_t *data, size_t size);
int assay_fuzz_csv(const uint8_t *data, size_t size);

#endif
