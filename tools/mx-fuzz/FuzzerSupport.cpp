//===- FuzzerSupport.cpp - shared parts of the mx fuzz targets ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "mx/InitMX.h"
#ifdef MX_INCLUDE_TESTS
#include "TestTarget.h"
#endif

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <random>

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::fuzz;

//===----------------------------------------------------------------------===//
// Inputs, context, parsing
//===----------------------------------------------------------------------===//

static constexpr llvm::StringLiteral kHeaderPrefix = "//! ";

FuzzInput fuzz::splitInput(StringRef data) {
  FuzzInput input;
  input.text = data;
  if (!data.starts_with(kHeaderPrefix))
    return input;
  size_t eol = std::min(data.find('\n'), data.size());
  StringRef header = data.take_front(eol);
  // Never a null StringRef (split's empty half is one): MLIR's lexer takes
  // a null position for its code-completion point.
  StringRef rest = data.drop_front(std::min(eol + 1, data.size()));
  header = header.drop_front(kHeaderPrefix.size()).trim();
  auto [action, options] = header.split(' ');
  input.action = action.str();
  input.options = options.trim().str();
  input.text = rest;
  return input;
}

void fuzz::chooseDefaultAction(FuzzInput &input) {
  llvm::ArrayRef<StringRef> actions = getHeaderActions();
  if (!input.action.empty() || actions.empty())
    return;
  auto [action, options] =
      actions[llvm::xxh3_64bits(input.text) % actions.size()].split(' ');
  input.action = action.str();
  input.options = options.str();
}

/// Inputs between two fresh contexts.
static constexpr unsigned kRenewEvery = 2000;

static bool mxDialectsOnly = false;

void fuzz::useMXDialectsOnly() { mxDialectsOnly = true; }

static std::unique_ptr<MLIRContext> context;

MLIRContext &fuzz::getContext() {
  static bool registered = [] {
    registerMXPasses();
    registerPipelineUpstreamPasses();
    return true;
  }();
  (void)registered;
  static unsigned uses = 0;
  if (!context || ++uses % kRenewEvery == 0) {
    context.reset();
    DialectRegistry registry;
    registerMXDialects(registry);
    if (mxDialectsOnly)
      registry.insert<arith::ArithDialect, func::FuncDialect,
                      tensor::TensorDialect>();
    else
      registerPipelineDialects(registry);
#ifdef MX_INCLUDE_TESTS
    test::registerTestTarget(registry);
#endif
    context = std::make_unique<MLIRContext>(registry,
                                            MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    // Diagnostics are expected outcomes here; MX_FUZZ_VERBOSE=1 shows them.
    static bool verbose = std::getenv("MX_FUZZ_VERBOSE") != nullptr;
    context->getDiagEngine().registerHandler([](Diagnostic &diag) {
      if (verbose)
        llvm::errs() << diag.getLocation() << ": " << diag << "\n";
      return success();
    });
  }
  return *context;
}

/// Whether brackets nest deeper than MLIR's recursive-descent parser can take
/// on a normal stack: upstream's parser (mlir-opt's too) overflows its stack
/// on a few thousand nested `(`, an upstream limitation that is not mx's to
/// fix. Such inputs are skipped.
static bool nestsTooDeeply(StringRef text) {
  int depth = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{' || c == '<')
      ++depth;
    else if (c == ')' || c == ']' || c == '}' || c == '>')
      --depth;
    if (depth > 256)
      return true;
  }
  return false;
}

/// Whether \p c can be part of a word (`\b` of a regular expression).
static bool isWordChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// \p text without its leading whitespace.
static StringRef skipSpace(StringRef text) {
  return text.drop_while([](char c) { return llvm::isSpace(c); });
}

/// \p text after a leading run of decimal digits, or std::nullopt when it
/// does not start with one.
static std::optional<StringRef> skipDigits(StringRef text) {
  StringRef rest = text.drop_while([](char c) { return llvm::isDigit(c); });
  if (rest.size() == text.size())
    return std::nullopt;
  return rest;
}

/// Whether the list after `permutation =` is a plain list of integers that
/// fit in 64 bits (`[0, 1, 2]`).
static bool isPlainIntegerList(StringRef text) {
  text = skipSpace(text);
  if (!text.consume_front("["))
    return false;
  while (true) {
    StringRef entry = skipSpace(text);
    std::optional<StringRef> rest = skipDigits(entry);
    int64_t value;
    if (!rest ||
        entry.take_front(entry.size() - rest->size()).getAsInteger(10, value))
      return false;
    text = skipSpace(*rest);
    if (text.consume_front("]"))
      return true;
    if (!text.consume_front(","))
      return false;
  }
}

/// Whether \p text has a construct that crashes upstream MLIR 22's own
/// parser (Debian's mlir-opt crashes on it too), which mx cannot fix: such
/// inputs are skipped so that the fuzzers keep looking for mx's bugs. Each
/// entry was found by these fuzzers and checked with mlir-opt. Every check
/// is one linear scan: this runs on every input (a std::regex with an
/// unbounded `[^]]*` once took seconds and a deep stack on 64 KiB inputs).
static bool hasUpstreamParserCrash(StringRef text) {
  // Parser::parseDenseArrayAttr asks an index type for its float width
  // (`array<index: 1>`).
  for (size_t p = text.find("array<"); p != StringRef::npos;
       p = text.find("array<", p + 1)) {
    StringRef rest = skipSpace(text.drop_front(p + 6));
    if (rest.starts_with("index") && (rest.size() == 5 || !isWordChar(rest[5])))
      return true;
  }
  // INT64_MIN in a static index list (e.g. tile_sizes of
  // transform.structured.tile_using_for) is ShapedType::kDynamic: the op
  // parses, and its printer then reads an operand that is not there. Here:
  // an INT64_MIN after a `[` with no `]` in between.
  for (size_t p = text.find("-9223372036854775808"); p != StringRef::npos;
       p = text.find("-9223372036854775808", p + 1)) {
    size_t bracket = text.find_last_of("[]", p);
    if (bracket != StringRef::npos && text[bracket] == '[')
      return true;
  }
  // linalg.transpose's parser stores a null attribute when its permutation
  // is not a plain list of integers (e.g. `[[0, 1], [2, 3]]`), and its
  // a permutation entry past 64 bits crashes it too (issue 37).
  for (size_t p = text.find("permutation"); p != StringRef::npos;
       p = text.find("permutation", p + 1)) {
    StringRef rest = skipSpace(text.drop_front(p + 11));
    if (rest.consume_front("=") && !isPlainIntegerList(rest))
      return true;
  }
  return false;
}

OwningOpRef<ModuleOp> fuzz::parseModule(StringRef text) {
  if (nestsTooDeeply(text) || hasUpstreamParserCrash(text))
    return nullptr;
  // The current context: getContext() renews it only between inputs.
  ParserConfig config(context ? context.get() : &getContext());
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  // Upstream MLIR 22's canonicalization of an amdgpu.memory_counter_wait in
  // a module's body crashes (mlir-opt --canonicalize too).
  if (module &&
      llvm::any_of(module->getBody()->getOperations(), [](Operation &op) {
        return op.getName().getStringRef() == "amdgpu.memory_counter_wait";
      }))
    return nullptr;
  return module;
}

void fuzz::fuzzerBug(const Twine &message) {
  llvm::errs() << "mx-fuzz: BUG: " << message << "\n";
  llvm::errs().flush();
  std::abort();
}

void fuzz::checkRoundTrip(ModuleOp module, StringRef what) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  ParserConfig config(module.getContext());
  OwningOpRef<ModuleOp> reparsed = parseSourceString<ModuleOp>(printed, config);
  if (!reparsed) {
    if (std::getenv("MX_FUZZ_VERBOSE"))
      llvm::errs() << printed << "\n";
    fuzzerBug("the output of " + what +
              " does not parse again (MX_FUZZ_VERBOSE=1 prints it)");
  }
}

//===----------------------------------------------------------------------===//
// The structure-aware mutator
//===----------------------------------------------------------------------===//

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {
using Rng = std::minstd_rand;

/// A span [begin, end) of the text.
struct Span {
  size_t begin, end;
};

size_t pick(Rng &rng, size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

template <typename T> const T &pickFrom(Rng &rng, llvm::ArrayRef<T> values) {
  return values[pick(rng, values.size())];
}

/// Replaces one of \p spans of \p text, picked at random, with
/// \p replacement.
bool replaceRandom(std::string &text, Rng &rng, const std::vector<Span> &spans,
                   const std::string &replacement) {
  if (spans.empty())
    return false;
  Span span = spans[pick(rng, spans.size())];
  text.replace(span.begin, span.end - span.begin, replacement);
  return true;
}

/// Every occurrence of \p word in \p text that is a whole word: not preceded
/// or followed by a word character (as `\bword\b` would match; \p word
/// starts and ends with word characters).
std::vector<Span> findWords(StringRef text, StringRef word) {
  std::vector<Span> spans;
  for (size_t p = text.find(word); p != StringRef::npos;
       p = text.find(word, p + 1)) {
    size_t end = p + word.size();
    if ((p == 0 || !isWordChar(text[p - 1])) &&
        (end == text.size() || !isWordChar(text[end])))
      spans.push_back({p, end});
  }
  return spans;
}

/// Every occurrence of any of \p words as a whole word, in text order.
std::vector<Span> findAnyWord(StringRef text,
                              llvm::ArrayRef<std::string> words) {
  std::vector<Span> spans;
  for (const std::string &word : words)
    llvm::append_range(spans, findWords(text, word));
  llvm::sort(spans, [](Span a, Span b) { return a.begin < b.begin; });
  return spans;
}

/// The integer `-?\d+` at \p pos of \p text ending at a word boundary, or
/// std::nullopt.
std::optional<Span> integerAt(StringRef text, size_t pos) {
  StringRef rest = text.drop_front(pos);
  size_t sign = rest.starts_with("-") ? 1 : 0;
  std::optional<StringRef> after = skipDigits(rest.drop_front(sign));
  if (!after || (!after->empty() && isWordChar(after->front())))
    return std::nullopt;
  return Span{pos, text.size() - after->size()};
}

/// Sizes and counts around the boundaries the code cares about: tiles (16,
/// 32, 64, 128), bytes, waves, 2^31/2^32/2^40 and overflow, negative values.
std::string interestingInteger(Rng &rng) {
  static const char *const values[] = {"0",
                                       "1",
                                       "2",
                                       "3",
                                       "4",
                                       "5",
                                       "7",
                                       "8",
                                       "15",
                                       "16",
                                       "17",
                                       "31",
                                       "32",
                                       "33",
                                       "48",
                                       "63",
                                       "64",
                                       "65",
                                       "96",
                                       "127",
                                       "128",
                                       "129",
                                       "255",
                                       "256",
                                       "257",
                                       "512",
                                       "1023",
                                       "1024",
                                       "4096",
                                       "65536",
                                       "-1",
                                       "-2",
                                       "-64",
                                       "2147483648",
                                       "4294967296",
                                       "1099511627776",
                                       "9223372036854775807",
                                       "-9223372036854775808"};
  if (pick(rng, 4) == 0)
    return std::to_string(pick(rng, 300));
  return values[pick(rng, std::size(values))];
}

std::string interestingDim(Rng &rng) {
  if (pick(rng, 8) == 0)
    return "?";
  std::string value = interestingInteger(rng);
  return value[0] == '-' ? "1" : value;
}

const std::vector<std::string> &elementTypes() {
  static const std::vector<std::string> types = {
      "f4E2M1FN",  "f6E2M3FN", "f6E3M2FN", "f8E4M3FN", "f8E5M2",
      "f8E8M0FNU", "f16",      "bf16",     "f32",      "f64",
      "i1",        "i8",       "i32",      "i64",      "index"};
  return types;
}

/// Keyword families: a member is replaced by another of its family.
const std::vector<std::vector<std::string>> &keywordFamilies() {
  static const std::vector<std::vector<std::string>> families = {
      {"mfma_scale_16x16x128", "mfma_scale_32x32x64"},
      {"16x16x128", "32x32x64"},
      {"lhs_scales", "rhs_scales", "lhs", "rhs", "result"},
      {"floor", "ceil", "even", "rceil"},
      {"nearest_even", "ties_away"},
      {"output=gpu", "output=isa"},
      {"parallel", "reduction"},
      {"arith.addf", "arith.mulf", "arith.subf", "arith.maximumf"},
      {"arith.truncf", "arith.extf"},
      {"mx.scaled_contraction", "mx.tiled_scaled_mma"},
  };
  return families;
}

const std::vector<std::string> &layoutKeys() {
  static const std::vector<std::string> keys = {"intrinsics_m", "intrinsics_n",
                                                "intrinsics_k", "subgroups_m",
                                                "subgroups_n"};
  return keys;
}

bool mutateElementType(std::string &text, Rng &rng) {
  static const std::vector<std::string> mutableTypes = [] {
    std::vector<std::string> types = elementTypes();
    types.push_back("i16");
    return types;
  }();
  return replaceRandom(text, rng, findAnyWord(text, mutableTypes),
                       pickFrom(rng, llvm::ArrayRef(elementTypes())));
}

/// A dimension of a shaped type (`tensor<4x?x32xf4E2M1FN>`): changed,
/// dropped or a new one inserted.
bool mutateShape(std::string &text, Rng &rng) {
  // `N` or `?` between `<` or `x` and `x`.
  std::vector<Span> spans;
  StringRef view = text;
  for (size_t i = 0; i + 2 < view.size(); ++i) {
    if (view[i] != '<' && view[i] != 'x')
      continue;
    StringRef rest = view.drop_front(i + 1);
    if (!rest.consume_front("?"))
      rest = skipDigits(rest).value_or(rest);
    size_t end = view.size() - rest.size();
    if (end > i + 1 && rest.starts_with("x"))
      spans.push_back({i + 1, end});
  }
  if (spans.empty())
    return false;
  Span span = spans[pick(rng, spans.size())];
  switch (pick(rng, 4)) {
  case 0: // drop "N" and its "x"
    text.erase(span.begin, span.end - span.begin + 1);
    break;
  case 1: // insert a dimension before it
    text.insert(span.begin, interestingDim(rng) + "x");
    break;
  default:
    text.replace(span.begin, span.end - span.begin, interestingDim(rng));
    break;
  }
  return true;
}

/// An integer literal in an attribute, operand or option position.
bool mutateInteger(std::string &text, Rng &rng) {
  // After one of `=[(,<:` or whitespace.
  std::vector<Span> spans;
  StringRef view = text;
  for (size_t i = 0; i + 1 < view.size(); ++i)
    if (StringRef("=[(,<:").contains(view[i]) || llvm::isSpace(view[i]))
      if (std::optional<Span> span = integerAt(view, i + 1))
        spans.push_back(*span);
  return replaceRandom(text, rng, spans, interestingInteger(rng));
}

bool mutateKeyword(std::string &text, Rng &rng) {
  const std::vector<std::string> &family =
      pickFrom(rng, llvm::ArrayRef(keywordFamilies()));
  return replaceRandom(text, rng, findAnyWord(text, family),
                       pickFrom(rng, llvm::ArrayRef(family)));
}

/// Layout parameters of #mx.data_tiled_layout, #mx_gfx950.target and the
/// pipeline options: a value changed, a parameter added, an interleave list
/// rewritten.
bool mutateLayout(std::string &text, Rng &rng) {
  switch (pick(rng, 4)) {
  case 0: {
    // `intrinsics_m = 4`, `subgroups-n=2`, ...: the value.
    std::vector<Span> spans;
    StringRef view = text;
    for (StringRef prefix : {"intrinsics", "subgroups"}) {
      for (size_t p = view.find(prefix); p != StringRef::npos;
           p = view.find(prefix, p + 1)) {
        StringRef rest = view.drop_front(p + prefix.size());
        if ((p > 0 && isWordChar(view[p - 1])) || rest.size() < 2 ||
            !StringRef("_-").contains(rest[0]) ||
            !StringRef("mnk").contains(rest[1]))
          continue;
        rest = skipSpace(rest.drop_front(2));
        if (!rest.consume_front("="))
          continue;
        rest = skipSpace(rest);
        if (std::optional<Span> span =
                integerAt(view, view.size() - rest.size()))
          spans.push_back(*span);
      }
    }
    return replaceRandom(text, rng, spans, interestingInteger(rng));
  }
  case 1: {
    // The `<` of `#mx.data_tiled_layout<` or `#mx_gfx950.target<`.
    std::vector<Span> spans;
    StringRef view = text;
    for (StringRef attr : {"#mx.data_tiled_layout<", "#mx_gfx950.target<"})
      for (size_t p = view.find(attr); p != StringRef::npos;
           p = view.find(attr, p + 1))
        spans.push_back({p + attr.size() - 1, p + attr.size()});
    std::string key = pickFrom(rng, llvm::ArrayRef(layoutKeys()));
    return replaceRandom(text, rng, spans,
                         "<" + key + " = " + interestingInteger(rng) + ", ");
  }
  case 2: {
    // Just after a `#mx_gfx950.target` without parameters.
    std::vector<Span> spans;
    StringRef view = text, attr = "#mx_gfx950.target";
    for (size_t p = view.find(attr); p != StringRef::npos;
         p = view.find(attr, p + 1)) {
      size_t end = p + attr.size();
      if (end == view.size() || view[end] != '<')
        spans.push_back({end, end});
    }
    std::string key = pickFrom(rng, llvm::ArrayRef(layoutKeys()));
    return replaceRandom(text, rng, spans,
                         "<" + key + " = " + interestingInteger(rng) + ">");
  }
  default: {
    // The list of `interleave_m = [...]`.
    std::vector<Span> spans;
    StringRef view = text;
    for (size_t p = view.find("interleave_"); p != StringRef::npos;
         p = view.find("interleave_", p + 1)) {
      StringRef rest = view.drop_front(p + 11);
      if (rest.empty() || !StringRef("mnk").contains(rest[0]))
        continue;
      rest = skipSpace(rest.drop_front());
      if (!rest.consume_front("="))
        continue;
      rest = skipSpace(rest);
      size_t begin = view.size() - rest.size();
      size_t close = view.find(']', begin);
      if (rest.starts_with("[") && close != StringRef::npos)
        spans.push_back({begin, close + 1});
    }
    static const char *const roles[] = {"lhs", "rhs", "lhs_scales",
                                        "rhs_scales", "result"};
    std::string list = "[";
    for (size_t i = 0, e = pick(rng, 4); i < e; ++i)
      list += std::string(i ? ", " : "") + roles[pick(rng, std::size(roles))];
    return replaceRandom(text, rng, spans, list + "]");
  }
  }
}

/// The results of an affine map permuted (`(m, k)` -> `(k, m)`) or one
/// result replaced by another dimension.
bool mutateIndexingMap(std::string &text, Rng &rng) {
  // The results of `affine_map<(dims) -> (results)>`.
  std::vector<Span> spans;
  StringRef view = text;
  for (size_t p = view.find("affine_map<("); p != StringRef::npos;
       p = view.find("affine_map<(", p + 1)) {
    size_t close = view.find(')', p);
    if (close == StringRef::npos)
      break;
    StringRef rest = skipSpace(view.drop_front(close + 1));
    if (!rest.consume_front("->") || !(rest = skipSpace(rest)).starts_with("("))
      continue;
    size_t begin = view.size() - rest.size() + 1;
    size_t end = view.find(')', begin);
    if (end != StringRef::npos && view.drop_front(end + 1).starts_with(">"))
      spans.push_back({begin, end});
  }
  if (spans.empty())
    return false;
  Span span = spans[pick(rng, spans.size())];
  SmallVector<StringRef> results;
  StringRef(text).slice(span.begin, span.end).split(results, ',');
  if (results.empty())
    return false;
  std::vector<std::string> parts;
  for (StringRef r : results)
    parts.push_back(r.trim().str());
  if (parts.size() > 1 && pick(rng, 2) == 0)
    std::swap(parts[pick(rng, parts.size())], parts[pick(rng, parts.size())]);
  else
    parts[pick(rng, parts.size())] = parts[pick(rng, parts.size())];
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i)
    joined += (i ? ", " : "") + parts[i];
  text.replace(span.begin, span.end - span.begin, joined);
  return true;
}

/// Splits [begin, end) at top-level commas (outside <>, (), [], {}).
std::vector<Span> splitTopLevel(const std::string &text, size_t begin,
                                size_t end) {
  std::vector<Span> parts;
  int depth = 0;
  size_t start = begin;
  for (size_t i = begin; i < end; ++i) {
    char c = text[i];
    if (c == '<' || c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == '>' && (i == 0 || text[i - 1] != '-')) || c == ')' ||
             c == ']' || c == '}')
      --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back({start, i});
      start = i + 1;
    }
  }
  parts.push_back({start, end});
  return parts;
}

/// An operand list `(%a, %b : t1, t2)` (ins/outs, calls, returns): one
/// operand dropped or duplicated, with its type when the list has them.
bool mutateOperands(std::string &text, Rng &rng) {
  // The `%` of every `(%`.
  std::vector<Span> opens;
  for (size_t p = text.find("(%"); p != std::string::npos;
       p = text.find("(%", p + 1))
    opens.push_back({p + 1, p + 2});
  if (opens.empty())
    return false;
  size_t begin = opens[pick(rng, opens.size())].begin;
  // The matching ')' (within 2000 characters).
  int depth = 1;
  size_t end = begin;
  for (; end < text.size() && end < begin + 2000; ++end) {
    char c = text[end];
    if (c == '(')
      ++depth;
    if (c == ')' && --depth == 0)
      break;
  }
  if (depth != 0)
    return false;
  // Values and, after a top-level ':', types.
  size_t colon = end;
  for (size_t i = begin, d = 0; i < end; ++i) {
    if (text[i] == '<' || text[i] == '(' || text[i] == '[')
      ++d;
    else if (text[i] == '>' || text[i] == ')' || text[i] == ']')
      d = d ? d - 1 : 0;
    else if (text[i] == ':' && d == 0) {
      colon = i;
      break;
    }
  }
  std::vector<Span> values = splitTopLevel(text, begin, colon);
  std::vector<Span> types;
  if (colon != end)
    types = splitTopLevel(text, colon + 1, end);
  size_t index = pick(rng, values.size());
  bool duplicate = pick(rng, 2) == 0;
  auto edit = [&](std::vector<Span> &list, size_t i) {
    if (i >= list.size())
      return;
    Span span = list[i];
    std::string item = text.substr(span.begin, span.end - span.begin);
    if (duplicate)
      text.insert(span.end, "," + item);
    else if (list.size() > 1)
      text.erase(i ? list[i - 1].end : span.begin,
                 i ? span.end - list[i - 1].end : span.end - span.begin + 1);
    else
      text.erase(span.begin, span.end - span.begin);
  };
  // Types after values: edit the later list first so offsets stay valid.
  if (!types.empty() && types.size() == values.size() && pick(rng, 4) != 0)
    edit(types, index);
  edit(values, index);
  return true;
}

bool mutateHeader(std::string &text, Rng &rng) {
  llvm::ArrayRef<StringRef> actions = getHeaderActions();
  if (actions.empty())
    return false;
  std::string header =
      std::string(kHeaderPrefix) + pickFrom(rng, actions).str() + "\n";
  if (StringRef(text).starts_with(kHeaderPrefix)) {
    size_t eol = text.find('\n');
    text.replace(0, eol == std::string::npos ? text.size() : eol + 1, header);
  } else {
    text.insert(0, header);
  }
  return true;
}

/// A line deleted, duplicated or moved.
bool mutateLines(std::string &text, Rng &rng) {
  std::vector<Span> lines;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == '\n') {
      lines.push_back({start, std::min(i + 1, text.size())});
      start = i + 1;
    }
  if (lines.size() < 2)
    return false;
  Span line = lines[pick(rng, lines.size())];
  std::string copy = text.substr(line.begin, line.end - line.begin);
  switch (pick(rng, 3)) {
  case 0:
    text.erase(line.begin, line.end - line.begin);
    break;
  case 1:
    text.insert(line.end, copy);
    break;
  default: {
    text.erase(line.begin, line.end - line.begin);
    Span to = lines[pick(rng, lines.size())];
    text.insert(std::min(to.begin, text.size()), copy);
    break;
  }
  }
  return true;
}

bool mutateOnce(std::string &text, Rng &rng) {
  switch (pick(rng, 11)) {
  case 0:
    return mutateElementType(text, rng);
  case 1:
  case 2:
    return mutateShape(text, rng);
  case 3:
    return mutateInteger(text, rng);
  case 4:
    return mutateKeyword(text, rng);
  case 5:
  case 6:
    return mutateLayout(text, rng);
  case 7:
    return mutateIndexingMap(text, rng);
  case 8:
    return mutateOperands(text, rng);
  case 9:
    return mutateHeader(text, rng);
  default:
    return mutateLines(text, rng);
  }
}
} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  Rng rng(seed);
  // Now and then libFuzzer's own byte-level mutations.
  if (pick(rng, 10) == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<const char *>(data), size);
  bool changed = false;
  for (size_t i = 0, rounds = 1 + pick(rng, 3); i < rounds; ++i)
    changed |= mutateOnce(text, rng);
  if (!changed || text.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

/// Crossover by lines: the start of one input, the end of the other.
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                            const uint8_t *data2, size_t size2,
                                            uint8_t *out, size_t maxOutSize,
                                            unsigned seed) {
  Rng rng(seed);
  StringRef a(reinterpret_cast<const char *>(data1), size1);
  StringRef b(reinterpret_cast<const char *>(data2), size2);
  auto lineStart = [&](StringRef text) -> size_t {
    if (text.empty())
      return 0;
    size_t at = pick(rng, text.size());
    size_t eol = text.find('\n', at);
    return eol == StringRef::npos ? text.size() : eol + 1;
  };
  std::string result =
      (a.take_front(lineStart(a)) + b.drop_front(lineStart(b))).str();
  size_t n = std::min(result.size(), maxOutSize);
  std::memcpy(out, result.data(), n);
  return n;
}
