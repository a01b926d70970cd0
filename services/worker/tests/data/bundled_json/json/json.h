// A small JSON library with jsoncpp's names, bundled with the bot (see ../README.md).
#ifndef BUNDLED_JSON_JSON_H
#define BUNDLED_JSON_JSON_H

#define JSON_BUNDLED_WITH_BOT 1

#include <string>
#include <vector>

namespace Json {

enum ValueType { nullValue, intValue, stringValue, booleanValue, arrayValue, objectValue };

class Value {
public:
    Value(ValueType type = nullValue);
    Value(int n);
    Value(long long n);
    Value(const char* s);
    Value(const std::string& s);

    ValueType type() const { return type_; }
    bool isMember(const std::string& key) const;
    // A missing member (or a null value's) reads as null; writing one adds it.
    const Value& operator[](const std::string& key) const;
    Value& operator[](const std::string& key);
    const Value& operator[](int index) const;
    Value& append(const Value& item);
    unsigned size() const;
    long long asInt() const;
    std::string asString() const;
    bool asBool() const;

    // Says which copy of the library this is: the system's jsoncpp has no such function.
    static const char* bundledBy();

private:
    friend class Reader;
    friend class FastWriter;
    ValueType type_;
    long long int_;
    std::string string_;
    std::vector<std::string> keys_;
    std::vector<Value> values_;  // array items, or object values in keys_ order
};

class Reader {
public:
    // Parses one JSON value; false (and `root` null) if `text` is not JSON.
    bool parse(const std::string& text, Value& root);

private:
    bool value(Value& out);
    bool string(std::string& out);
    void space();
    const char* at_ = nullptr;
    const char* end_ = nullptr;
};

class FastWriter {
public:
    // Compact JSON and a newline, as jsoncpp's FastWriter writes it.
    std::string write(const Value& root);

private:
    void value(const Value& v, std::string& out);
};

}  // namespace Json

#endif
