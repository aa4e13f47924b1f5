//===- Npy.cpp - Host tensors and the .npy file format --------------------===//

#include "Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace relax_run;

size_t relax_run::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::Bool:
  case DType::I8:
  case DType::U8:
    return 1;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  }
  return 0;
}

const char *relax_run::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::Bool:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "ui8";
  case DType::U16:
    return "ui16";
  case DType::U32:
    return "ui32";
  case DType::U64:
    return "ui64";
  }
  return "?";
}

/// The numpy descr of a dtype (little endian). numpy has no bfloat16: bf16
/// travels as its uint16 bit pattern, as ONNX's numpy_helper writes it, so
/// a '<u2' file reads as ui16 and relax-run takes it as bf16 where the
/// program has a bf16 (see adoptDType in relax-run.cpp).
static const char *npyDescr(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "<f2";
  case DType::BF16:
  case DType::U16:
    return "<u2";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::Bool:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::U8:
    return "|u1";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  }
  return "?";
}

std::optional<DType> relax_run::integerDType(unsigned width, bool isUnsigned) {
  switch (width) {
  case 8:
    return isUnsigned ? DType::U8 : DType::I8;
  case 16:
    return isUnsigned ? DType::U16 : DType::I16;
  case 32:
    return isUnsigned ? DType::U32 : DType::I32;
  case 64:
    return isUnsigned ? DType::U64 : DType::I64;
  default:
    return std::nullopt;
  }
}

bool relax_run::isIntegerDType(DType dtype) {
  switch (dtype) {
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return true;
  default:
    return false;
  }
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string HostTensor::shapeStr() const {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// IEEE half <-> float, so f16 tensors can be printed and compared.
static float halfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float value;
  if (exp == 0)
    value = std::ldexp(static_cast<float>(mant), -24);
  else if (exp == 31)
    value = mant ? NAN : INFINITY;
  else
    value = std::ldexp(static_cast<float>(mant | 0x400), exp - 25);
  return sign ? -value : value;
}

static uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = ((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff)
    return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exp >= 31)
    return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10)
      return sign;
    mant |= 0x800000;
    uint32_t shift = 14 - exp;
    uint32_t half = mant >> shift;
    if ((mant >> (shift - 1)) & 1)
      ++half;
    return sign | half;
  }
  uint32_t half = sign | (exp << 10) | (mant >> 13);
  if (mant & 0x1000)
    ++half; // round to nearest
  return half;
}

double HostTensor::get(int64_t i) const {
  const uint8_t *p = data.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::F16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return halfToFloat(h);
  }
  case DType::BF16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    uint32_t x = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
  }
  case DType::F32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case DType::F64: {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  case DType::Bool:
    return *p ? 1 : 0;
  default:
    return static_cast<double>(getExact(i));
  }
  return 0;
}

/// Reads a `T` from unaligned bytes.
template <typename T> static T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// Writes `v` converted to `T` to unaligned bytes.
template <typename T> static void store(uint8_t *p, double v) {
  T x = static_cast<T>(v);
  std::memcpy(p, &x, sizeof(T));
}

__int128 HostTensor::getExact(int64_t i) const {
  const uint8_t *p = data.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::Bool:
    return *p ? 1 : 0;
  case DType::I8:
    return load<int8_t>(p);
  case DType::I16:
    return load<int16_t>(p);
  case DType::I32:
    return load<int32_t>(p);
  case DType::I64:
    return load<int64_t>(p);
  case DType::U8:
    return load<uint8_t>(p);
  case DType::U16:
    return load<uint16_t>(p);
  case DType::U32:
    return load<uint32_t>(p);
  case DType::U64:
    return load<uint64_t>(p);
  default:
    return 0; // Not an integer dtype.
  }
}

std::string HostTensor::str(int64_t i, int precision) const {
  if (isIntegerDType(dtype)) {
    __int128 v = getExact(i);
    // Every element fits an int64_t except ui64 values above its range.
    if (v > INT64_MAX)
      return std::to_string(static_cast<uint64_t>(v));
    return std::to_string(static_cast<int64_t>(v));
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.*g", precision, get(i));
  return s;
}

void HostTensor::set(int64_t i, double v) {
  uint8_t *p = data.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::F16: {
    uint16_t h = floatToHalf(static_cast<float>(v));
    std::memcpy(p, &h, 2);
    return;
  }
  case DType::BF16: {
    float f = static_cast<float>(v);
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint16_t h = static_cast<uint16_t>((x + 0x7fff + ((x >> 16) & 1)) >> 16);
    std::memcpy(p, &h, 2);
    return;
  }
  case DType::F32: {
    float f = static_cast<float>(v);
    std::memcpy(p, &f, 4);
    return;
  }
  case DType::F64:
    std::memcpy(p, &v, 8);
    return;
  case DType::Bool:
    *p = v != 0;
    return;
  case DType::I8:
    return store<int8_t>(p, v);
  case DType::I16:
    return store<int16_t>(p, v);
  case DType::I32:
    return store<int32_t>(p, v);
  case DType::I64:
    return store<int64_t>(p, v);
  case DType::U8:
    return store<uint8_t>(p, v);
  case DType::U16:
    return store<uint16_t>(p, v);
  case DType::U32:
    return store<uint32_t>(p, v);
  case DType::U64:
    return store<uint64_t>(p, v);
  }
}

static llvm::Error npyError(llvm::StringRef path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": not a valid .npy file: " + what);
}

/// Finds `'key':` in the header dict and returns the text after it.
static std::optional<llvm::StringRef> findKey(llvm::StringRef header,
                                              llvm::StringRef key) {
  std::string quoted = "'" + key.str() + "'";
  size_t pos = header.find(quoted);
  if (pos == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = header.drop_front(pos + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  return rest.ltrim();
}

llvm::Expected<HostTensor> relax_run::readNpy(llvm::StringRef path) {
  auto bufferOr = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!bufferOr)
    return llvm::createStringError(bufferOr.getError(),
                                   path + ": " +
                                       bufferOr.getError().message());
  llvm::StringRef bytes = (*bufferOr)->getBuffer();
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY"))
    return npyError(path, "missing the \\x93NUMPY magic");
  uint8_t major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = static_cast<uint8_t>(bytes[8]) |
                (static_cast<uint8_t>(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError(path, "truncated header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i]))
                   << (8 * i);
    headerStart = 12;
  } else {
    return npyError(path, "unsupported format version " + llvm::Twine(major));
  }
  if (bytes.size() < headerStart + headerLen)
    return npyError(path, "truncated header");
  llvm::StringRef header = bytes.substr(headerStart, headerLen);

  auto descr = findKey(header, "descr");
  auto fortran = findKey(header, "fortran_order");
  auto shapeText = findKey(header, "shape");
  if (!descr || !fortran || !shapeText)
    return npyError(path, "header lacks descr, fortran_order or shape");
  if (fortran->starts_with("True"))
    return npyError(path, "Fortran-ordered arrays are not supported");

  llvm::StringRef d = *descr;
  if (!d.consume_front("'"))
    return npyError(path, "malformed descr");
  d = d.take_until([](char c) { return c == '\''; });
  HostTensor tensor;
  static const DType all[] = {DType::F16, DType::F32, DType::F64, DType::Bool,
                              DType::I8,  DType::I16, DType::I32, DType::I64,
                              DType::U8,  DType::U16, DType::U32, DType::U64};
  bool found = false;
  for (DType dtype : all)
    if (d == npyDescr(dtype)) {
      tensor.dtype = dtype;
      found = true;
    }
  if (!found)
    return npyError(path, "unsupported dtype '" + d + "'");

  llvm::StringRef s = *shapeText;
  if (!s.consume_front("("))
    return npyError(path, "malformed shape");
  s = s.take_until([](char c) { return c == ')'; });
  llvm::SmallVector<llvm::StringRef> parts;
  s.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      continue;
    int64_t dim;
    if (part.getAsInteger(10, dim) || dim < 0)
      return npyError(path, "malformed shape entry '" + part + "'");
    tensor.shape.push_back(dim);
  }
  // Guard the size computation against absurd shapes in corrupt headers.
  uint64_t count = 1;
  for (int64_t dim : tensor.shape) {
    if (dim != 0 && count > (uint64_t(1) << 40) / static_cast<uint64_t>(dim))
      return npyError(path, "shape too large");
    count *= static_cast<uint64_t>(dim);
  }
  size_t dataBytes = count * dtypeSize(tensor.dtype);
  size_t dataStart = headerStart + headerLen;
  if (bytes.size() - dataStart < dataBytes)
    return npyError(path, "expected " + llvm::Twine(dataBytes) +
                              " data bytes, found " +
                              llvm::Twine(bytes.size() - dataStart));
  tensor.data.assign(bytes.begin() + dataStart,
                     bytes.begin() + dataStart + dataBytes);
  return tensor;
}

llvm::Error relax_run::writeNpy(llvm::StringRef path,
                                const HostTensor &tensor) {
  std::string shape = "(";
  for (int64_t d : tensor.shape)
    shape += std::to_string(d) + ",";
  if (tensor.shape.size() > 1)
    shape.pop_back();
  shape += ")";
  std::string header = "{'descr': '" + std::string(npyDescr(tensor.dtype)) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError(ec, path + ": " + ec.message());
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write(reinterpret_cast<const char *>(tensor.data.data()),
           tensor.data.size());
  return llvm::Error::success();
}
