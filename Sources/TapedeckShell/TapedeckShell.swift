import Tapedeck
