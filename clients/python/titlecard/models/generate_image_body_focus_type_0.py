from enum import StrEnum


class GenerateImageBodyFocusType0(StrEnum):
    ATTENTION = "attention"
    AUTO = "auto"
    CENTER = "center"

    def __str__(self) -> str:
        return str(self.value)
