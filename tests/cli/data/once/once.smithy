$version: "2"

metadata listed = ["once"]

namespace example.once

string Name
