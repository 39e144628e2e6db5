//===- HIPRuntime.cpp - the HIP runtime, loaded at run time ---------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HIPRuntime.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace mlir::mx::hip;

namespace {
/// hipMemcpyKind (hip_runtime_api.h): hipMemcpyHostToDevice = 1,
/// hipMemcpyDeviceToHost = 2.
constexpr int kHostToDevice = 1;
constexpr int kDeviceToHost = 2;
/// The `extra` keys of hipModuleLaunchKernel (hip_runtime_api.h:
/// HIP_LAUNCH_PARAM_BUFFER_POINTER, _BUFFER_SIZE and _END are the
/// pointers 1, 2 and 3).
void *const kLaunchParamBufferPointer = reinterpret_cast<void *>(1);
void *const kLaunchParamBufferSize = reinterpret_cast<void *>(2);
void *const kLaunchParamEnd = reinterpret_cast<void *>(3);
} // namespace

/// The functions used, with the signatures of hip_runtime_api.h.
struct Runtime::API {
  // hipError_t hipInit(unsigned int flags);
  Status (*init)(unsigned);
  // hipError_t hipGetDeviceCount(int *count);
  Status (*getDeviceCount)(int *);
  // hipError_t hipSetDevice(int deviceId);
  Status (*setDevice)(int);
  // hipError_t hipMalloc(void **ptr, size_t size);
  Status (*malloc)(void **, size_t);
  // hipError_t hipFree(void *ptr);
  Status (*free)(void *);
  // hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes,
  //                      hipMemcpyKind kind);
  Status (*memcpy)(void *, const void *, size_t, int);
  // hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
  Status (*moduleLoadData)(Module *, const void *);
  // hipError_t hipModuleUnload(hipModule_t module);
  Status (*moduleUnload)(Module);
  // hipError_t hipModuleGetFunction(hipFunction_t *function,
  //                                 hipModule_t module, const char *kname);
  Status (*moduleGetFunction)(Function *, Module, const char *);
  // hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned gridDimX,
  //     unsigned gridDimY, unsigned gridDimZ, unsigned blockDimX,
  //     unsigned blockDimY, unsigned blockDimZ, unsigned sharedMemBytes,
  //     hipStream_t stream, void **kernelParams, void **extra);
  Status (*moduleLaunchKernel)(Function, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, unsigned, Stream, void **,
                               void **);
  // hipError_t hipDeviceSynchronize(void);
  Status (*deviceSynchronize)();
  // hipError_t hipEventCreate(hipEvent_t *event);
  Status (*eventCreate)(Event *);
  // hipError_t hipEventDestroy(hipEvent_t event);
  Status (*eventDestroy)(Event);
  // hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream);
  Status (*eventRecord)(Event, Stream);
  // hipError_t hipEventSynchronize(hipEvent_t event);
  Status (*eventSynchronize)(Event);
  // hipError_t hipEventElapsedTime(float *ms, hipEvent_t start,
  //                                hipEvent_t stop);
  Status (*eventElapsedTime)(float *, Event, Event);
  // const char *hipGetErrorString(hipError_t hipError);
  const char *(*getErrorString)(Status);
};

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// "HIP_VISIBLE_DEVICES=<value>" or "HIP_VISIBLE_DEVICES unset".
static std::string describeVisibleDevices() {
  std::string text;
  for (const char *name : {"HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"}) {
    if (!text.empty())
      text += ", ";
    const char *value = std::getenv(name);
    text +=
        value ? std::string(name) + "=" + value : std::string(name) + " unset";
  }
  return text;
}

llvm::Expected<std::unique_ptr<Runtime>>
Runtime::load(llvm::StringRef library) {
  llvm::SmallVector<std::string> candidates;
  const char *fromEnvironment = std::getenv(kLibraryEnvironmentVariable);
  if (!library.empty()) {
    candidates.push_back(library.str());
  } else if (fromEnvironment && *fromEnvironment) {
    candidates.push_back(fromEnvironment);
  } else {
    // The development symlink first, then the sonames of the runtime
    // packages (Debian's ROCm 5.2 ships only libamdhip64.so.5).
    llvm::SmallVector<std::string> directories = {""};
    if (const char *rocm = std::getenv("ROCM_PATH"))
      directories.push_back(std::string(rocm) + "/lib/");
    directories.push_back("/opt/rocm/lib/");
    for (const std::string &directory : directories)
      for (llvm::StringRef suffix : {"", ".7", ".6", ".5"})
        candidates.push_back(directory + "libamdhip64.so" + suffix.str());
  }
  std::unique_ptr<Runtime> runtime(new Runtime);
  std::string tried;
  for (const std::string &candidate : candidates) {
    runtime->handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (runtime->handle) {
      runtime->libraryPath = candidate;
      break;
    }
    const char *why = dlerror();
    tried += "\n  " + candidate + ": " + (why ? why : "not loadable");
  }
  if (!runtime->handle) {
    std::string origin =
        !library.empty() ? "--hip-library"
        : (fromEnvironment && *fromEnvironment)
            ? std::string("$") + kLibraryEnvironmentVariable
            : "the loader's search path (LD_LIBRARY_PATH, ldconfig), "
              "$ROCM_PATH/lib and /opt/rocm/lib";
    return makeError("no HIP runtime: could not load the HIP runtime "
                     "library from " +
                     origin + "; tried:" + tried +
                     "\n(install ROCm 7 or later with gfx950 support, or name "
                     "the library with --hip-library=PATH or $" +
                     kLibraryEnvironmentVariable + ")");
  }

  runtime->api = std::make_unique<API>();
  API &api = *runtime->api;
  std::string missing;
  auto resolve = [&](auto &function, const char *name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
        dlsym(runtime->handle, name));
    if (!function)
      missing += std::string(missing.empty() ? "" : ", ") + name;
  };
  resolve(api.init, "hipInit");
  resolve(api.getDeviceCount, "hipGetDeviceCount");
  resolve(api.setDevice, "hipSetDevice");
  resolve(api.malloc, "hipMalloc");
  resolve(api.free, "hipFree");
  resolve(api.memcpy, "hipMemcpy");
  resolve(api.moduleLoadData, "hipModuleLoadData");
  resolve(api.moduleUnload, "hipModuleUnload");
  resolve(api.moduleGetFunction, "hipModuleGetFunction");
  resolve(api.moduleLaunchKernel, "hipModuleLaunchKernel");
  resolve(api.deviceSynchronize, "hipDeviceSynchronize");
  resolve(api.eventCreate, "hipEventCreate");
  resolve(api.eventDestroy, "hipEventDestroy");
  resolve(api.eventRecord, "hipEventRecord");
  resolve(api.eventSynchronize, "hipEventSynchronize");
  resolve(api.eventElapsedTime, "hipEventElapsedTime");
  resolve(api.getErrorString, "hipGetErrorString");
  if (!missing.empty())
    return makeError("no HIP runtime: " + runtime->libraryPath +
                     " lacks the HIP functions " + missing);

  std::string devices = describeVisibleDevices();
  if (Status status = api.init(0))
    return makeError("no HIP device: hipInit failed in " +
                     runtime->libraryPath + ": " + api.getErrorString(status) +
                     " (" + devices + ")");
  int count = 0;
  Status status = api.getDeviceCount(&count);
  if (status || count < 1)
    return makeError(
        "no HIP device: " + runtime->libraryPath + " found no GPU (" +
        (status
             ? std::string("hipGetDeviceCount: ") + api.getErrorString(status)
             : std::string("hipGetDeviceCount: 0 devices")) +
        "; " + devices + ")");
  runtime->deviceCount = count;
  if (llvm::Error error = runtime->check(api.setDevice(0), "hipSetDevice(0)"))
    return std::move(error);
  return runtime;
}

Runtime::~Runtime() {
  if (!api)
    return;
  for (Event event : events)
    api->eventDestroy(event);
  for (Module module : modules)
    api->moduleUnload(module);
  // The library stays loaded: the HIP runtime does not support unloading.
}

llvm::Error Runtime::check(Status status, llvm::StringRef call) {
  if (!status)
    return llvm::Error::success();
  return makeError(call + " failed: " + api->getErrorString(status) +
                   " (hipError_t " + llvm::Twine(status) + ")");
}

llvm::Expected<void *> Runtime::allocate(size_t bytes) {
  void *pointer = nullptr;
  if (llvm::Error error =
          check(api->malloc(&pointer, std::max<size_t>(bytes, 1)),
                "hipMalloc(" + std::to_string(bytes) + ")"))
    return std::move(error);
  return pointer;
}

llvm::Error Runtime::free(void *pointer) {
  return check(api->free(pointer), "hipFree");
}

llvm::Error Runtime::copyToDevice(void *device, const void *host,
                                  size_t bytes) {
  if (!bytes)
    return llvm::Error::success();
  return check(api->memcpy(device, host, bytes, kHostToDevice),
               "hipMemcpy(host to device)");
}

llvm::Error Runtime::copyToHost(void *host, const void *device, size_t bytes) {
  if (!bytes)
    return llvm::Error::success();
  return check(api->memcpy(host, device, bytes, kDeviceToHost),
               "hipMemcpy(device to host)");
}

llvm::Expected<Module> Runtime::loadModule(const void *image) {
  Module module = nullptr;
  if (llvm::Error error =
          check(api->moduleLoadData(&module, image),
                "hipModuleLoadData (the code objects are for gfx950)"))
    return std::move(error);
  modules.push_back(module);
  return module;
}

llvm::Expected<Function> Runtime::getFunction(Module module,
                                              llvm::StringRef name) {
  Function function = nullptr;
  std::string text = name.str();
  if (llvm::Error error =
          check(api->moduleGetFunction(&function, module, text.c_str()),
                "hipModuleGetFunction(" + text + ")"))
    return std::move(error);
  return function;
}

llvm::Error Runtime::launch(Function function, const unsigned grid[3],
                            const unsigned block[3],
                            std::vector<uint8_t> &kernargs) {
  size_t size = kernargs.size();
  void *extra[] = {kLaunchParamBufferPointer, kernargs.data(),
                   kLaunchParamBufferSize, &size, kLaunchParamEnd};
  return check(api->moduleLaunchKernel(function, grid[0], grid[1], grid[2],
                                       block[0], block[1], block[2],
                                       /*sharedMemBytes=*/0,
                                       /*stream=*/nullptr,
                                       /*kernelParams=*/nullptr, extra),
               "hipModuleLaunchKernel");
}

llvm::Error Runtime::synchronize() {
  return check(api->deviceSynchronize(), "hipDeviceSynchronize");
}

llvm::Expected<Event> Runtime::createEvent() {
  Event event = nullptr;
  if (llvm::Error error = check(api->eventCreate(&event), "hipEventCreate"))
    return std::move(error);
  events.push_back(event);
  return event;
}

llvm::Error Runtime::record(Event event) {
  return check(api->eventRecord(event, nullptr), "hipEventRecord");
}

llvm::Expected<float> Runtime::elapsedMilliseconds(Event start, Event stop) {
  if (llvm::Error error =
          check(api->eventSynchronize(stop), "hipEventSynchronize"))
    return std::move(error);
  float milliseconds = 0;
  if (llvm::Error error =
          check(api->eventElapsedTime(&milliseconds, start, stop),
                "hipEventElapsedTime"))
    return std::move(error);
  return milliseconds;
}
