from enum import StrEnum


class GenerateImageBodyFocusType0(StrEnum):
    ATTENTION = "attention"
    CENTER = "center"

    def __str__(self) -> str:
        return str(self.value)
