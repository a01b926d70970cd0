// The bundled JSON library's code (see README.md): one file beside json/, like jsoncpp's
// amalgamated jsoncpp.cpp.
#include "json/json.h"

#include <cstdio>
#include <cstdlib>

namespace Json {

static const Value null_value;

Value::Value(ValueType type) : type_(type), int_(0) {}
Value::Value(int n) : type_(intValue), int_(n) {}
Value::Value(long long n) : type_(intValue), int_(n) {}
Value::Value(const char* s) : type_(stringValue), int_(0), string_(s) {}
Value::Value(const std::string& s) : type_(stringValue), int_(0), string_(s) {}

const char* Value::bundledBy() { return "the JSON library bundled with this bot"; }

bool Value::isMember(const std::string& key) const {
    for (const std::string& k : keys_)
        if (k == key) return true;
    return false;
}

const Value& Value::operator[](const std::string& key) const {
    for (size_t i = 0; i < keys_.size(); ++i)
        if (keys_[i] == key) return values_[i];
    return null_value;
}

Value& Value::operator[](const std::string& key) {
    if (type_ == nullValue) type_ = objectValue;
    for (size_t i = 0; i < keys_.size(); ++i)
        if (keys_[i] == key) return values_[i];
    keys_.push_back(key);
    values_.push_back(Value());
    return values_.back();
}

const Value& Value::operator[](int index) const {
    if (type_ != arrayValue || index < 0 || size_t(index) >= values_.size()) return null_value;
    return values_[size_t(index)];
}

Value& Value::append(const Value& item) {
    if (type_ == nullValue) type_ = arrayValue;
    values_.push_back(item);
    return values_.back();
}

unsigned Value::size() const {
    return type_ == arrayValue || type_ == objectValue ? unsigned(values_.size()) : 0;
}

long long Value::asInt() const { return type_ == intValue ? int_ : 0; }
std::string Value::asString() const { return type_ == stringValue ? string_ : std::string(); }
bool Value::asBool() const { return type_ == booleanValue && int_ != 0; }

bool Reader::parse(const std::string& text, Value& root) {
    at_ = text.data();
    end_ = at_ + text.size();
    root = Value();
    bool ok = value(root);
    space();
    if (!ok || at_ != end_) {
        root = Value();
        return false;
    }
    return true;
}

void Reader::space() {
    while (at_ < end_ && (*at_ == ' ' || *at_ == '\n' || *at_ == '\r' || *at_ == '\t')) ++at_;
}

bool Reader::string(std::string& out) {
    if (at_ >= end_ || *at_ != '"') return false;
    for (++at_; at_ < end_; ++at_) {
        char c = *at_;
        if (c == '"') {
            ++at_;
            return true;
        }
        if (c == '\\') {
            if (++at_ >= end_) return false;
            switch (*at_) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u':  // kept as written: the bot's input is ASCII
                    out += "\\u";
                    break;
                default: out += *at_;
            }
        } else {
            out += c;
        }
    }
    return false;
}

bool Reader::value(Value& out) {
    space();
    if (at_ >= end_) return false;
    char c = *at_;
    if (c == '{') {
        out = Value(objectValue);
        ++at_;
        space();
        if (at_ < end_ && *at_ == '}') return ++at_, true;
        for (;;) {
            space();
            std::string key;
            if (!string(key)) return false;
            space();
            if (at_ >= end_ || *at_ != ':') return false;
            ++at_;
            if (!value(out[key])) return false;
            space();
            if (at_ < end_ && *at_ == ',') { ++at_; continue; }
            if (at_ < end_ && *at_ == '}') return ++at_, true;
            return false;
        }
    }
    if (c == '[') {
        out = Value(arrayValue);
        ++at_;
        space();
        if (at_ < end_ && *at_ == ']') return ++at_, true;
        for (;;) {
            Value item;
            if (!value(item)) return false;
            out.append(item);
            space();
            if (at_ < end_ && *at_ == ',') { ++at_; continue; }
            if (at_ < end_ && *at_ == ']') return ++at_, true;
            return false;
        }
    }
    if (c == '"') {
        out = Value(stringValue);
        return string(out.string_);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char* stop = nullptr;
        std::string number(at_, size_t(end_ - at_) < 32 ? size_t(end_ - at_) : 32);
        double d = std::strtod(number.c_str(), &stop);
        at_ += stop - number.c_str();
        out = Value((long long)d);
        return true;
    }
    for (const char* word : {"true", "false", "null"}) {
        std::string w(word);
        if (size_t(end_ - at_) >= w.size() && std::string(at_, w.size()) == w) {
            at_ += w.size();
            out = Value(w == "null" ? nullValue : booleanValue);
            out.int_ = w == "true";
            return true;
        }
    }
    return false;
}

std::string FastWriter::write(const Value& root) {
    std::string out;
    value(root, out);
    return out + "\n";
}

void FastWriter::value(const Value& v, std::string& out) {
    switch (v.type_) {
        case nullValue: out += "null"; break;
        case booleanValue: out += v.int_ ? "true" : "false"; break;
        case intValue: out += std::to_string(v.int_); break;
        case stringValue: {
            out += '"';
            for (char c : v.string_) {
                if (c == '"' || c == '\\') out += '\\';
                out += c;
            }
            out += '"';
            break;
        }
        case arrayValue:
            out += '[';
            for (size_t i = 0; i < v.values_.size(); ++i) {
                if (i) out += ',';
                value(v.values_[i], out);
            }
            out += ']';
            break;
        case objectValue:
            out += '{';
            for (size_t i = 0; i < v.values_.size(); ++i) {
                if (i) out += ',';
                out += '"' + v.keys_[i] + "\":";
                value(v.values_[i], out);
            }
            out += '}';
            break;
    }
}

}  // namespace Json
