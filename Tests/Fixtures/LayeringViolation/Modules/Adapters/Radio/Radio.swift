import Errands

public let first = Errand()
