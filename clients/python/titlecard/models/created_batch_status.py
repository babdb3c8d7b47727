from enum import StrEnum


class CreatedBatchStatus(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    QUEUED = "queued"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
