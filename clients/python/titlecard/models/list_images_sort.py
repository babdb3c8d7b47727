from enum import StrEnum


class ListImagesSort(StrEnum):
    CREATEDAT = "createdAt"
    TITLE = "title"

    def __str__(self) -> str:
        return str(self.value)
