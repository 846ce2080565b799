#include "metrics/text_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kcm::metrics {

std::string_view type_name(MetricType type) {
  switch (type) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
  }
  return "untyped";
}

std::string format_value(double v) {
  // expfmt's writeFloat special-cases these before strconv (so -0 prints "0").
  if (v == 1) return "1";
  if (v == 0) return "0";
  if (v == -1) return "-1";
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";

  // Shortest round-trip digits, then Go's %g layout decision on them.
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
  std::string out;
  std::size_t pos = 0;
  if (sci[0] == '-') {
    out += '-';
    pos = 1;
  }
  const std::size_t e = sci.find('e');
  std::string digits;
  for (std::size_t i = pos; i < e; ++i) {
    if (sci[i] != '.') digits += sci[i];
  }
  int exp = 0;
  std::string_view exp_text = sci.substr(e + 1);
  if (!exp_text.empty() && exp_text[0] == '+') exp_text.remove_prefix(1);
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exp);

  const int nd = static_cast<int>(digits.size());
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (nd > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += 'e';
    out += exp < 0 ? '-' : '+';
    const int abs_exp = std::abs(exp);
    if (abs_exp < 10) out += '0';
    out += std::to_string(abs_exp);
    return out;
  }
  const int dp = exp + 1;  // digits before the decimal point
  if (dp <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-dp), '0');
    out += digits;
  } else if (dp >= nd) {
    out += digits;
    out.append(static_cast<std::size_t>(dp - nd), '0');
  } else {
    out.append(digits, 0, static_cast<std::size_t>(dp));
    out += '.';
    out.append(digits, static_cast<std::size_t>(dp));
  }
  return out;
}

std::string escape_help(std::string_view help) {
  std::string out;
  out.reserve(help.size());
  for (const char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string escape_label_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"') {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

// name{a="x",b="y",extra="v"} value
void write_sample(std::string& out, std::string_view name, std::string_view suffix,
                  const std::vector<LabelPair>& labels, std::string_view extra_name,
                  std::string_view extra_value, double value) {
  out += name;
  out += suffix;
  if (!labels.empty() || !extra_name.empty()) {
    out += '{';
    bool first = true;
    for (const LabelPair& label : labels) {
      if (!first) out += ',';
      first = false;
      out += label.name;
      out += "=\"";
      out += escape_label_value(label.value);
      out += '"';
    }
    if (!extra_name.empty()) {
      if (!first) out += ',';
      out += extra_name;
      out += "=\"";
      out += extra_value;
      out += '"';
    }
    out += '}';
  }
  out += ' ';
  out += format_value(value);
  out += '\n';
}

}  // namespace

std::string render_text(const std::vector<FamilySnapshot>& families) {
  std::string out;
  for (const FamilySnapshot& family : families) {
    if (family.metrics.empty()) continue;
    out += "# HELP ";
    out += family.name;
    out += ' ';
    out += escape_help(family.help);
    out += "\n# TYPE ";
    out += family.name;
    out += ' ';
    out += type_name(family.type);
    out += '\n';
    for (const MetricSnapshot& m : family.metrics) {
      if (family.type != MetricType::kHistogram) {
        write_sample(out, family.name, "", m.labels, "", "", m.value);
        continue;
      }
      for (std::size_t i = 0; i < family.upper_bounds.size(); ++i) {
        const std::uint64_t n = i < m.cumulative_counts.size() ? m.cumulative_counts[i] : 0;
        write_sample(out, family.name, "_bucket", m.labels, "le",
                     format_value(family.upper_bounds[i]), static_cast<double>(n));
      }
      write_sample(out, family.name, "_bucket", m.labels, "le", "+Inf",
                   static_cast<double>(m.count));
      write_sample(out, family.name, "_sum", m.labels, "", "", m.sum);
      write_sample(out, family.name, "_count", m.labels, "", "", static_cast<double>(m.count));
    }
  }
  return out;
}

}  // namespace kcm::metrics
