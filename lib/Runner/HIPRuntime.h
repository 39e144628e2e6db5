//===- HIPRuntime.h - the HIP runtime, loaded at run time -------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The few functions of the HIP runtime (libamdhip64.so) that
// `mx-run --backend=hip` calls, looked up with dlopen/dlsym when it runs: mx
// has no build-time dependency on ROCm, and any ROCm whose HIP C API keeps
// these signatures (6.x, 7.x) works. The signatures are those documented in
// HIP's hip_runtime_api.h; handles are opaque pointers and hipError_t is a C
// enum (an int, hipSuccess = 0).
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_RUNNER_HIPRUNTIME_H
#define MX_LIB_RUNNER_HIPRUNTIME_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace mlir::mx::hip {

/// hipError_t.
using Status = int;
using Module = void *;
using Function = void *;
using Event = void *;
using Stream = void *;

/// The environment variable that names the HIP runtime library to load
/// instead of searching for libamdhip64.so.
constexpr const char *kLibraryEnvironmentVariable = "MX_HIP_LIBRARY";

/// A loaded HIP runtime with device `device` current.
class Runtime {
public:
  /// Loads the runtime: \p library if not empty, else $MX_HIP_LIBRARY if set,
  /// else libamdhip64.so from the loader's search path, then from
  /// $ROCM_PATH/lib and /opt/rocm/lib. Initializes it and selects device 0
  /// (of those HIP_VISIBLE_DEVICES shows). The error names every path tried
  /// and why it failed, or that no device was found and what
  /// HIP_VISIBLE_DEVICES was.
  static llvm::Expected<std::unique_ptr<Runtime>> load(llvm::StringRef library);
  ~Runtime();

  /// The library that was loaded.
  llvm::StringRef getLibraryPath() const { return libraryPath; }
  int getDeviceCount() const { return deviceCount; }

  llvm::Expected<void *> allocate(size_t bytes);
  llvm::Error free(void *pointer);
  llvm::Error copyToDevice(void *device, const void *host, size_t bytes);
  llvm::Error copyToHost(void *host, const void *device, size_t bytes);
  /// Loads the code object \p image (kept alive by the caller until the
  /// runtime is destroyed).
  llvm::Expected<Module> loadModule(const void *image);
  llvm::Expected<Function> getFunction(Module module, llvm::StringRef name);
  /// Launches \p function on the null stream with \p grid workgroups of
  /// \p block threads, the explicit kernel arguments packed in \p kernargs.
  llvm::Error launch(Function function, const unsigned grid[3],
                     const unsigned block[3], std::vector<uint8_t> &kernargs);
  llvm::Error synchronize();
  llvm::Expected<Event> createEvent();
  /// Records \p event on the null stream.
  llvm::Error record(Event event);
  /// Milliseconds between two recorded events (waits for \p stop).
  llvm::Expected<float> elapsedMilliseconds(Event start, Event stop);

private:
  Runtime() = default;
  llvm::Error check(Status status, llvm::StringRef call);

  void *handle = nullptr;
  std::string libraryPath;
  int deviceCount = 0;
  std::vector<Event> events;
  std::vector<Module> modules;
  struct API;
  std::unique_ptr<API> api;
};

} // namespace mlir::mx::hip

#endif // MX_LIB_RUNNER_HIPRUNTIME_H
