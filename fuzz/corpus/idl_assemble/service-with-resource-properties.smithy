$version: "2"
namespace ex
service S {
  veritifiers: { id: Sing }, properties: { p: String }, create: A }
operation A {}
