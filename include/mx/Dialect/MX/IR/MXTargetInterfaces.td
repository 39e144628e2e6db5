//===- MXTargetInterfaces.td - the target interface --------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Separate from MXInterfaces.td because its methods take mx attributes
// (its C++ declarations come after the attribute classes).
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_IR_MXTARGETINTERFACES_TD
#define MX_DIALECT_MX_IR_MXTARGETINTERFACES_TD

include "mlir/IR/OpBase.td"

def MX_LayoutResolverAttrInterface : AttrInterface<"LayoutResolverAttrInterface"> {
  let cppNamespace = "::mlir::mx";
  let description = [{
    A target, as an attribute: it resolves an `#mx.encoding` to a data-tiled
    layout (an attribute implementing `TiledLayoutAttrInterface`) and says
    which of its ukernels, if any, serves a layout. Core passes such as
    `mx-materialize-encodings` only ever talk to a target through this
    interface; each target implements it in its own library, e.g.
    `#mx_gfx950.target<...>`, which carries the layout pins of that target.
    The attribute is found on the IR (the `mx.target` attribute of an
    enclosing op) or given as a pass option.

    Example:

    ```mlir
    module attributes {mx.target = #mx_gfx950.target<intrinsic = mfma_scale_32x32x64>} {
      ...
    }
    ```
  }];
  let methods = [
    InterfaceMethod<
      "Chooses the data-tiled layout of the tensors encoded by `encoding` "
      "(all encodings of one contraction resolve alike, whatever their "
      "role). `dims` classifies the iteration dimensions of the encoding's "
      "indexing maps (exactly one M and one N dimension). Errors are "
      "reported on `op`.",
      "::llvm::FailureOr<::mlir::mx::TiledLayoutAttrInterface>",
      "resolveLayout",
      (ins "::mlir::Operation *":$op, "::mlir::mx::EncodingAttr":$encoding,
           "const ::mlir::mx::ScaledContractionDims &":$dims)>,
    InterfaceMethod<
      "The name of the ukernel that serves `layout`; failure when none "
      "does, with one line per rejected ukernel (why it was rejected) "
      "written to `rejections`.",
      "::llvm::FailureOr<::std::string>", "selectUKernel",
      (ins "::mlir::Attribute":$layout,
           "::llvm::raw_ostream &":$rejections)>,
    InterfaceMethod<
      "Whether the target's kernels can compute `op`, an op of the body of "
      "an `mx.tiled_scaled_mma` epilogue (see `mx-fuse-epilogues`), for "
      "every sum; when they cannot, failure, with the reason written to "
      "`reason`. By default every op can (a target whose epilogues go "
      "through the generic lowering to `linalg`).",
      "::llvm::LogicalResult", "checkEpilogueOp",
      (ins "::mlir::Operation *":$op, "::llvm::raw_ostream &":$reason),
      /*methodBody=*/"", /*defaultImplementation=*/[{
        return ::mlir::success();
      }]>,
    InterfaceMethod<
      "Into how many parts (a divisor of the K tile count; 1: none) to split "
      "the K tiles of `op`, an `mx.tiled_scaled_mma` on tensors, so that "
      "the parts run as separate workgroups whose partial sums a second "
      "dispatch adds (see `mx-split-k`). `why` receives the reason of the "
      "choice, for a remark. By default a contraction is not split.",
      "int64_t", "resolveSplitK",
      (ins "::mlir::Operation *":$op, "::llvm::raw_ostream &":$why),
      /*methodBody=*/"", /*defaultImplementation=*/[{
        return 1;
      }]>,
    InterfaceMethod<
      "The upper bounds of the M buckets, increasing, for which a "
      "contraction with a dynamic M gets a version of its own (see "
      "`mx-specialize-dynamic-m`): the layout resolved for M equal to the "
      "bound, chosen at run time by M. By default there are none (one "
      "version for every M).",
      "::llvm::SmallVector<int64_t>", "getDynamicMBuckets", (ins),
      /*methodBody=*/"", /*defaultImplementation=*/[{
        return {};
      }]>,
  ];
}

#endif // MX_DIALECT_MX_IR_MXTARGETINTERFACES_TD
