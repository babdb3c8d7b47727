from enum import StrEnum


class CheckLayoutBodyColorMode(StrEnum):
    AUTO = "auto"
    BLACK = "black"
    CUSTOM = "custom"
    WHITE = "white"

    def __str__(self) -> str:
        return str(self.value)
