from enum import StrEnum


class GenerateImageBodyPositionType0(StrEnum):
    BOTTOM = "bottom"
    CENTER = "center"
    TOP = "top"

    def __str__(self) -> str:
        return str(self.value)
