//===- HIPCodeObject.cpp - AMDGPU code objects for the HIP backend --------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/HIPCodeObject.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::hip;

static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

uint64_t KernelMetadata::getExplicitKernargBytes() const {
  uint64_t end = 0;
  for (const KernelArgMetadata &arg : args)
    if (!arg.isHidden())
      end = std::max(end, arg.offset + arg.size);
  return end;
}

namespace {
/// Typed access to the fields of one MessagePack map, remembering the first
/// problem (a missing field or one of the wrong kind).
class MapReader {
public:
  MapReader(llvm::msgpack::MapDocNode &map, StringRef what)
      : map(map), what(what.str()) {}

  /// Reads the unsigned integer `key` (required unless \p optional).
  void read(StringRef key, uint64_t &value, bool optional = false) {
    llvm::msgpack::DocNode *node = find(key, optional);
    if (!node)
      return;
    if (node->getKind() == llvm::msgpack::Type::UInt) {
      value = node->getUInt();
    } else if (node->getKind() == llvm::msgpack::Type::Int &&
               node->getInt() >= 0) {
      value = uint64_t(node->getInt());
    } else {
      setError(key + " is not a non-negative integer");
    }
  }
  /// Reads the string `key`.
  void read(StringRef key, std::string &value, bool optional = false) {
    llvm::msgpack::DocNode *node = find(key, optional);
    if (!node)
      return;
    if (node->getKind() != llvm::msgpack::Type::String)
      return setError(key + " is not a string");
    value = node->getString().str();
  }
  /// The array `key`, or null (an error if not \p optional).
  llvm::msgpack::ArrayDocNode *array(StringRef key, bool optional = false) {
    llvm::msgpack::DocNode *node = find(key, optional);
    if (!node)
      return nullptr;
    if (node->getKind() != llvm::msgpack::Type::Array) {
      setError(key + " is not an array");
      return nullptr;
    }
    arrayNode = node->getArray();
    return &*arrayNode;
  }
  llvm::Error takeError() {
    return error.empty() ? llvm::Error::success() : makeError(error);
  }

private:
  llvm::msgpack::DocNode *find(StringRef key, bool optional) {
    auto it = map.find(key);
    if (it == map.end()) {
      if (!optional)
        setError("has no " + key);
      return nullptr;
    }
    return &it->second;
  }
  void setError(const Twine &message) {
    if (error.empty())
      error = what + ": " + message.str();
  }

  llvm::msgpack::MapDocNode &map;
  std::string what;
  std::string error;
  std::optional<llvm::msgpack::ArrayDocNode> arrayNode;
};
} // namespace

/// Parses the `amdhsa.kernels` of the MessagePack blob \p blob.
static llvm::Expected<SmallVector<KernelMetadata>>
parseMetadataBlob(StringRef blob) {
  llvm::msgpack::Document document;
  if (!document.readFromBlob(blob, /*Multi=*/false))
    return makeError("the AMDGPU metadata note is not valid MessagePack");
  if (document.getRoot().getKind() != llvm::msgpack::Type::Map)
    return makeError("the AMDGPU metadata is not a map");
  MapReader root(document.getRoot().getMap(), "the AMDGPU metadata");
  llvm::msgpack::ArrayDocNode *kernels = root.array("amdhsa.kernels");
  if (llvm::Error error = root.takeError())
    return std::move(error);
  SmallVector<KernelMetadata> result;
  for (auto [index, node] : llvm::enumerate(*kernels)) {
    std::string what = "amdhsa.kernels[" + std::to_string(index) + "]";
    if (node.getKind() != llvm::msgpack::Type::Map)
      return makeError(what + " is not a map");
    KernelMetadata kernel;
    MapReader reader(node.getMap(), what);
    reader.read(".name", kernel.name);
    reader.read(".symbol", kernel.symbol);
    reader.read(".kernarg_segment_size", kernel.kernargSegmentSize);
    reader.read(".kernarg_segment_align", kernel.kernargSegmentAlign);
    reader.read(".group_segment_fixed_size", kernel.groupSegmentFixedSize);
    reader.read(".private_segment_fixed_size", kernel.privateSegmentFixedSize);
    reader.read(".sgpr_count", kernel.sgprCount, /*optional=*/true);
    reader.read(".vgpr_count", kernel.vgprCount, /*optional=*/true);
    reader.read(".agpr_count", kernel.agprCount, /*optional=*/true);
    reader.read(".wavefront_size", kernel.wavefrontSize, /*optional=*/true);
    reader.read(".max_flat_workgroup_size", kernel.maxFlatWorkgroupSize,
                /*optional=*/true);
    if (llvm::msgpack::ArrayDocNode *args =
            reader.array(".args", /*optional=*/true)) {
      for (auto [argIndex, argNode] : llvm::enumerate(*args)) {
        std::string argWhat = what + ".args[" + std::to_string(argIndex) + "]";
        if (argNode.getKind() != llvm::msgpack::Type::Map)
          return makeError(argWhat + " is not a map");
        KernelArgMetadata arg;
        MapReader argReader(argNode.getMap(), argWhat);
        argReader.read(".offset", arg.offset);
        argReader.read(".size", arg.size);
        argReader.read(".value_kind", arg.valueKind);
        if (llvm::Error error = argReader.takeError())
          return std::move(error);
        kernel.args.push_back(std::move(arg));
      }
    }
    if (llvm::Error error = reader.takeError())
      return std::move(error);
    result.push_back(std::move(kernel));
  }
  return result;
}

llvm::Expected<SmallVector<KernelMetadata>>
mlir::mx::hip::readCodeObjectMetadata(StringRef elf) {
  using ELFT = llvm::object::ELF64LE;
  llvm::Expected<llvm::object::ELFFile<ELFT>> file =
      llvm::object::ELFFile<ELFT>::create(elf);
  if (!file)
    return makeError("not a 64-bit little-endian ELF code object: " +
                     llvm::toString(file.takeError()));
  if (file->getHeader().e_machine != llvm::ELF::EM_AMDGPU)
    return makeError("not an AMDGPU code object (ELF machine " +
                     Twine(file->getHeader().e_machine) + ")");
  auto headers = file->program_headers();
  if (!headers)
    return makeError("unreadable program headers: " +
                     llvm::toString(headers.takeError()));
  for (const auto &header : *headers) {
    if (header.p_type != llvm::ELF::PT_NOTE)
      continue;
    llvm::Error error = llvm::Error::success();
    for (const auto &note : file->notes(header, error)) {
      if (note.getName() != "AMDGPU" ||
          note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      ArrayRef<uint8_t> desc = note.getDesc(header.p_align);
      llvm::Expected<SmallVector<KernelMetadata>> kernels =
          parseMetadataBlob(llvm::toStringRef(desc));
      // The note iteration's error must be checked on every path.
      if (error)
        return makeError("unreadable note: " +
                         llvm::toString(std::move(error)));
      return kernels;
    }
    if (error)
      return makeError("unreadable note: " + llvm::toString(std::move(error)));
  }
  return makeError("the code object has no AMDGPU metadata note "
                   "(NT_AMDGPU_METADATA, code object v3 or later)");
}

std::string KernargSlot::describe() const {
  std::string arg = "arg #" + std::to_string(operand);
  switch (kind) {
  case Kind::AllocatedPointer:
    return arg + " allocated pointer";
  case Kind::AlignedPointer:
    return arg + " aligned pointer";
  case Kind::Offset:
    return arg + " offset";
  case Kind::Size:
    return arg + " size[" + std::to_string(dim) + "]";
  case Kind::Stride:
    return arg + " stride[" + std::to_string(dim) + "]";
  case Kind::Scalar:
    return arg;
  }
  return arg;
}

/// The bytes of a scalar kernel argument of type \p type (index as 64 bits,
/// the ROCDL lowering's default index width), or 0 if unsupported.
static unsigned getScalarBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat()) {
    unsigned bits = type.getIntOrFloatBitWidth();
    if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
      return bits / 8;
    if (bits == 1)
      return 1;
  }
  return 0;
}

llvm::Expected<SmallVector<KernargSlot>>
mlir::mx::hip::getKernargSlots(gpu::GPUFuncOp kernel) {
  SmallVector<KernargSlot> slots;
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    KernargSlot slot;
    slot.operand = index;
    if (auto memref = dyn_cast<MemRefType>(type)) {
      // The memref descriptor, field by field (MLIR's MemRefDescriptor).
      slot.bytes = 8;
      slot.kind = KernargSlot::Kind::AllocatedPointer;
      slots.push_back(slot);
      slot.kind = KernargSlot::Kind::AlignedPointer;
      slots.push_back(slot);
      slot.kind = KernargSlot::Kind::Offset;
      slots.push_back(slot);
      for (auto kind : {KernargSlot::Kind::Size, KernargSlot::Kind::Stride})
        for (unsigned dim = 0; dim < unsigned(memref.getRank()); ++dim) {
          slot.kind = kind;
          slot.dim = dim;
          slots.push_back(slot);
        }
      continue;
    }
    slot.bytes = getScalarBytes(type);
    if (!slot.bytes) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << type;
      return makeError("kernel @" + kernel.getName() + " argument #" +
                       Twine(index) + " has type " + text +
                       ", which the HIP backend cannot pass");
    }
    slots.push_back(slot);
  }
  layoutKernargs(slots);
  return slots;
}

uint64_t mlir::mx::hip::layoutKernargs(MutableArrayRef<KernargSlot> slots) {
  uint64_t offset = 0;
  for (KernargSlot &slot : slots) {
    offset = llvm::alignTo(offset, slot.bytes);
    slot.offset = offset;
    offset += slot.bytes;
  }
  return offset;
}

llvm::Error mlir::mx::hip::checkKernargLayout(ArrayRef<KernargSlot> slots,
                                              const KernelMetadata &metadata) {
  std::string kernel = "kernel " + metadata.name + ": ";
  SmallVector<const KernelArgMetadata *> explicitArgs;
  for (const KernelArgMetadata &arg : metadata.args)
    if (!arg.isHidden())
      explicitArgs.push_back(&arg);
  if (explicitArgs.size() != slots.size())
    return makeError(
        kernel + "the code object has " + Twine(explicitArgs.size()) +
        " explicit kernel arguments, the launch packs " + Twine(slots.size()));
  uint64_t end = 0, align = 1;
  for (auto [index, slot, arg] : llvm::enumerate(slots, explicitArgs)) {
    if (slot.offset != arg->offset || slot.bytes != arg->size)
      return makeError(kernel + "kernel argument " + Twine(index) + " (" +
                       slot.describe() + ") is at offset " +
                       Twine(arg->offset) + " with " + Twine(arg->size) +
                       " bytes in the code object, the launch packs it at " +
                       Twine(slot.offset) + " with " + Twine(slot.bytes));
    end = std::max(end, slot.offset + slot.bytes);
    align = std::max<uint64_t>(align, slot.bytes);
  }
  if (end > metadata.kernargSegmentSize)
    return makeError(kernel + "the explicit arguments take " + Twine(end) +
                     " bytes, more than the kernarg segment's " +
                     Twine(metadata.kernargSegmentSize));
  if (!llvm::isPowerOf2_64(metadata.kernargSegmentAlign) ||
      metadata.kernargSegmentAlign < align)
    return makeError(kernel + "the kernarg segment alignment " +
                     Twine(metadata.kernargSegmentAlign) +
                     " is not a power of two of at least " + Twine(align));
  return llvm::Error::success();
}

llvm::Expected<uint64_t>
mlir::mx::hip::getKernargValue(const KernargSlot &slot, gpu::GPUFuncOp kernel,
                               ArrayRef<emu::HostValue> args) {
  std::string what = slot.describe() + " of @" + kernel.getName().str();
  if (slot.operand >= args.size())
    return makeError(what + ": the launch passes " + Twine(args.size()) +
                     " arguments");
  const emu::HostValue &arg = args[slot.operand];
  bool isMemRef = arg.getKind() == emu::HostValue::Kind::MemRef;
  const emu::StridedLayout &layout = arg.getLayout();
  switch (slot.kind) {
  case KernargSlot::Kind::AllocatedPointer:
  case KernargSlot::Kind::AlignedPointer:
    return makeError(what + " is a device pointer");
  case KernargSlot::Kind::Offset:
    if (!isMemRef)
      break;
    return uint64_t(layout.offset);
  case KernargSlot::Kind::Size:
    if (!isMemRef || slot.dim >= layout.sizes.size())
      break;
    return uint64_t(layout.sizes[slot.dim]);
  case KernargSlot::Kind::Stride:
    if (!isMemRef || slot.dim >= layout.strides.size())
      break;
    return uint64_t(layout.strides[slot.dim]);
  case KernargSlot::Kind::Scalar: {
    Type type = kernel.getArgumentTypes()[slot.operand];
    if (arg.getKind() == emu::HostValue::Kind::Integer && !isa<FloatType>(type))
      return uint64_t(arg.getInteger());
    auto floatType = dyn_cast<FloatType>(type);
    if (arg.getKind() == emu::HostValue::Kind::Float && floatType) {
      llvm::APFloat value(arg.getFloat());
      bool lost;
      value.convert(floatType.getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      return value.bitcastToAPInt().getZExtValue();
    }
    break;
  }
  }
  return makeError(what + " does not match the launch's argument");
}

llvm::Expected<std::vector<uint8_t>> mlir::mx::hip::packKernargs(
    ArrayRef<KernargSlot> slots, gpu::GPUFuncOp kernel,
    ArrayRef<emu::HostValue> args,
    function_ref<uint64_t(const emu::HostBuffer *)> pointerOf) {
  uint64_t end = 0;
  for (const KernargSlot &slot : slots)
    end = std::max(end, slot.offset + slot.bytes);
  std::vector<uint8_t> bytes(end, 0);
  for (const KernargSlot &slot : slots) {
    uint64_t value;
    if (slot.kind == KernargSlot::Kind::AllocatedPointer ||
        slot.kind == KernargSlot::Kind::AlignedPointer) {
      if (slot.operand >= args.size() ||
          args[slot.operand].getKind() != emu::HostValue::Kind::MemRef ||
          !args[slot.operand].getBuffer())
        return makeError(slot.describe() + " of @" + kernel.getName() +
                         ": the launch passes no memref");
      value = pointerOf(args[slot.operand].getBuffer().get());
    } else {
      llvm::Expected<uint64_t> scalar = getKernargValue(slot, kernel, args);
      if (!scalar)
        return scalar.takeError();
      value = *scalar;
    }
    // Little-endian, as both the host and the GPU are.
    for (unsigned byte = 0; byte < slot.bytes; ++byte)
      bytes[slot.offset + byte] = uint8_t(value >> (8 * byte));
  }
  return bytes;
}
