//===- FakeHIP.cpp - a stand-in libamdhip64.so for tests ------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The HIP C functions `mx-run --backend=hip` loads, implemented on host
// memory so that the backend's runtime path (dlopen, device buffers,
// copies, code object loading, launches with packed kernel arguments,
// event timing) runs in tests without a GPU. Kernels do not execute: a
// launch logs its kernel, grid, block and kernel argument bytes on stderr
// ("fake-hip: ..."), and advances a fake clock by one microsecond, which
// events record. MX_FAKE_HIP_DEVICES sets the device count (default 1; 0
// makes hipGetDeviceCount fail with hipErrorNoDevice, as HIP does).
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {
constexpr int kSuccess = 0;
constexpr int kErrorInvalidValue = 1;
constexpr int kErrorNoDevice = 100;
constexpr int kErrorInvalidImage = 200;

/// Microseconds of fake device time.
double fakeClock = 0;

struct FakeEvent {
  double time = 0;
};
/// A module owns its functions, as HIP's do (freed by hipModuleUnload).
struct FakeModule {
  int id;
  std::vector<std::unique_ptr<std::string>> functions;
};
int modules = 0;
} // namespace

extern "C" {
int hipInit(unsigned) { return kSuccess; }

int hipGetDeviceCount(int *count) {
  const char *text = std::getenv("MX_FAKE_HIP_DEVICES");
  *count = text ? std::atoi(text) : 1;
  return *count > 0 ? kSuccess : kErrorNoDevice;
}

int hipSetDevice(int device) {
  return device == 0 ? kSuccess : kErrorInvalidValue;
}

int hipMalloc(void **pointer, size_t bytes) {
  *pointer = std::calloc(bytes, 1);
  return *pointer ? kSuccess : kErrorInvalidValue;
}

int hipFree(void *pointer) {
  std::free(pointer);
  return kSuccess;
}

int hipMemcpy(void *destination, const void *source, size_t bytes, int kind) {
  if (kind != 1 && kind != 2)
    return kErrorInvalidValue;
  std::memcpy(destination, source, bytes);
  return kSuccess;
}

int hipModuleLoadData(void **module, const void *image) {
  if (std::memcmp(image,
                  "\x7f"
                  "ELF",
                  4) != 0)
    return kErrorInvalidImage;
  *module = new FakeModule{modules++, {}};
  return kSuccess;
}

int hipModuleUnload(void *module) {
  delete static_cast<FakeModule *>(module);
  return kSuccess;
}

int hipModuleGetFunction(void **function, void *module, const char *name) {
  auto &functions = static_cast<FakeModule *>(module)->functions;
  functions.push_back(std::make_unique<std::string>(name));
  *function = functions.back().get();
  return kSuccess;
}

int hipModuleLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                          unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void *stream, void **params,
                          void **extra) {
  // extra: {BUFFER_POINTER (1), buffer, BUFFER_SIZE (2), &size, END (3)}.
  if (params || !extra || extra[0] != reinterpret_cast<void *>(1) ||
      extra[2] != reinterpret_cast<void *>(2) ||
      extra[4] != reinterpret_cast<void *>(3))
    return kErrorInvalidValue;
  const auto *bytes = static_cast<const uint8_t *>(extra[1]);
  size_t size = *static_cast<size_t *>(extra[3]);
  std::fprintf(stderr,
               "fake-hip: launch %s grid %ux%ux%u block %ux%ux%u shared %u "
               "kernargs %zu bytes:",
               static_cast<std::string *>(function)->c_str(), gx, gy, gz, bx,
               by, bz, shared, size);
  // The 8-byte words, as unsigned integers (pointers print as "ptr").
  for (size_t offset = 0; offset + 8 <= size; offset += 8) {
    uint64_t word;
    std::memcpy(&word, bytes + offset, 8);
    if (word >= (uint64_t(1) << 32))
      std::fprintf(stderr, " ptr");
    else
      std::fprintf(stderr, " %llu", (unsigned long long)word);
  }
  std::fprintf(stderr, "\n");
  fakeClock += 1;
  return kSuccess;
}

int hipDeviceSynchronize() { return kSuccess; }

int hipEventCreate(void **event) {
  *event = new FakeEvent;
  return kSuccess;
}

int hipEventDestroy(void *event) {
  delete static_cast<FakeEvent *>(event);
  return kSuccess;
}

int hipEventRecord(void *event, void *) {
  static_cast<FakeEvent *>(event)->time = fakeClock;
  return kSuccess;
}

int hipEventSynchronize(void *) { return kSuccess; }

int hipEventElapsedTime(float *milliseconds, void *start, void *stop) {
  *milliseconds = float((static_cast<FakeEvent *>(stop)->time -
                         static_cast<FakeEvent *>(start)->time) *
                        1e-3);
  return kSuccess;
}

const char *hipGetErrorString(int status) {
  switch (status) {
  case kErrorNoDevice:
    return "hipErrorNoDevice";
  case kErrorInvalidImage:
    return "hipErrorInvalidImage";
  default:
    return "hipErrorInvalidValue";
  }
}
}
