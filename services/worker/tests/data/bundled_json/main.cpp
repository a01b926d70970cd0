// A Splendor bot built with the JSON library it brings (json/json.h, jsoncpp.cpp): it takes one
// gem of the first colour on the table while it holds fewer than 10 tokens, else passes.
#include <json/json.h>

#ifndef JSON_BUNDLED_WITH_BOT
#error "compiled against the system's jsoncpp, not the json/json.h bundled with this bot"
#endif

#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
    std::string text;
    if (argc > 1) {
        text = argv[1];
    } else {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    }
    Json::Value state;
    if (!Json::Reader().parse(text, state)) {
        std::cerr << "unreadable input\n";
        return 1;
    }
    const std::string me = state["playerName"].asString();
    long long held = 0;
    const Json::Value& players = state["players"];
    for (unsigned i = 0; i < players.size(); ++i) {
        if (players[int(i)]["name"].asString() != me) continue;
        const Json::Value& gems = players[int(i)]["gems"];
        for (unsigned g = 0; g < gems.size(); ++g) held += gems[int(g)]["count"].asInt();
    }
    Json::Value move(Json::objectValue);
    const Json::Value& table = state["table"]["gems"];
    for (unsigned g = 0; g < table.size() && held < 10; ++g) {
        const Json::Value& gem = table[int(g)];
        if (gem["color"].asString() != "gold" && gem["count"].asInt() > 0) {
            move["get_different_color_gems"].append(gem["color"]);
            break;
        }
    }
    const std::string out = Json::FastWriter().write(move);
    std::cerr << "written by " << Json::Value::bundledBy() << ": " << out;
    std::cout << out;
    return 0;
}
