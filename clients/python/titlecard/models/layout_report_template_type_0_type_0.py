from enum import StrEnum


class LayoutReportTemplateType0Type0(StrEnum):
    BOTTOM_LEFT = "bottom-left"
    LEFT = "left"
    RIGHT = "right"
    SPLIT = "split"

    def __str__(self) -> str:
        return str(self.value)
