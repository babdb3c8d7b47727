from enum import StrEnum


class CheckLayoutBodyFocusType0(StrEnum):
    ATTENTION = "attention"
    AUTO = "auto"
    CENTER = "center"

    def __str__(self) -> str:
        return str(self.value)
