@_exported import Tapedeck
