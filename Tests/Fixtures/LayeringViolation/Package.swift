// swift-tools-version: 6.1
import PackageDescription

// A package that breaks the layering on purpose: an adapter (Radio) depends
// on the engine layer (Errands). scripts/check-layering-selftest.sh runs
// WhileHere's layering check on it and expects it to refuse.
let package = Package(
  name: "LayeringViolation",
  dependencies: [.package(name: "WhileHere", path: "../../..")],
  targets: [
    .target(name: "Errands", path: "Modules/UseCases/Errands"),
    .target(name: "Radio", dependencies: ["Errands"], path: "Modules/Adapters/Radio"),
  ]
)
