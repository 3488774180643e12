public struct Errand { public init() {} }
