// Users import TapedeckTesting alone and get the cassette model, matchers and errors too.
@_exported import Tapedeck
