// Temporary stand-in until the hazard checker lands (not committed).
#include "mx/Target/GFX950/ISA/Hazards.h"
using namespace mlir::mx::gfx950::isa;
struct HazardChecker::Impl {};
HazardChecker::HazardChecker() : impl(std::make_unique<Impl>()) {}
HazardChecker::~HazardChecker() = default;
llvm::Error HazardChecker::issue(const Instruction &) { return llvm::Error::success(); }
void HazardChecker::reset() {}
llvm::ArrayRef<HazardRule> mlir::mx::gfx950::isa::getHazardRules() { return {}; }
