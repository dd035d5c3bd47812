-- A hand-made Nsight Systems export in schema 3.16 (nsys 2024.6): the tables profana reads,
-- CREATE statements as nsys writes them (comments dropped). One process (pid 300, thread 301:
-- globalPid 281480009875456, globalTid 281480009875757) running nvFuser, whose NVTX ranges are its own
-- instrumentation, not PyTorch ops; times in ns.
--   "FusionExecutor::runFusion" (a registered string)   1000 .. 8000  a user annotation
--   "getTerminatingOutputs" (inline text)              1200 .. 1300  a user annotation
--   cudaLaunchKernel_v7000     2000 .. 2500  correlation 1693 -> kernel nvfuser_none_f0_c0_r0_g0
--                                                                3000 .. 5000, GPU 0, stream 7
--   cudaMemcpyAsync_v3020      6000 .. 6100  correlation 1694 -> Memcpy DtoH (Device -> Pageable)
--                                                                6200 .. 6400 (copy kind 2, from
--                                                                memory kind 2 to 0, named by
--                                                                ENUM_CUDA_MEM_KIND)
--   cudaStreamSynchronize_v3020 6500 .. 7000 correlation 1695 -> Stream Sync 6600 .. 6900
--   cudaLaunchKernel_v7000     8500 .. 8600  correlation 1696 -> a fill kernel 8700 .. 8800, whose
--                                                                demangled name is missing from
--                                                                StringIds: its short name is used
-- So runFusion: total 7.000 us, self 7.000 - 0.100 - 0.500 - 0.100 - 0.500 = 5.800 us, and the
-- kernel (2.000 us) and the copy (0.200 us) under it; the fill kernel runs outside every range.
CREATE TABLE StringIds ( id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE NVTX_EVENTS ( start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME ( start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL ( start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY ( start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER, virtualAddress INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET ( start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION ( start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL);
CREATE TABLE TARGET_INFO_GPU ( vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT, isDiscrete INTEGER, l2CacheSize INTEGER, totalMemory INTEGER, memoryBandwidth INTEGER, clockRate INTEGER, smCount INTEGER, pwGpuId INTEGER, uuid TEXT, luid INTEGER, chipName TEXT, cuDevice INTEGER, ctxswDevPath TEXT, ctrlDevPath TEXT, revision INTEGER, nodeMask INTEGER, constantMemory INTEGER, maxIPC INTEGER, maxRegistersPerBlock INTEGER, maxShmemPerBlock INTEGER, maxShmemPerBlockOptin INTEGER, maxShmemPerSm INTEGER, maxRegistersPerSm INTEGER, threadsPerWarp INTEGER, asyncEngines INTEGER, maxWarpsPerSm INTEGER, maxBlocksPerSm INTEGER, maxThreadsPerBlock INTEGER, maxBlockDimX INTEGER, maxBlockDimY INTEGER, maxBlockDimZ INTEGER, maxGridDimX INTEGER, maxGridDimY INTEGER, maxGridDimZ INTEGER, computeMajor INTEGER, computeMinor INTEGER, smMajor INTEGER, smMinor INTEGER);
CREATE TABLE ThreadNames ( nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
CREATE TABLE PROCESSES ( globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE ENUM_CUDA_MEM_KIND ( id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE META_DATA_EXPORT ( name TEXT NOT NULL, value TEXT);
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cudaMemcpyAsync_v3020'),
  (3, 'cudaStreamSynchronize_v3020'), (4, 'nvfuser_none_f0_c0_r0_g0'), (5, 'fill_kernel'),
  (20, 'FusionExecutor::runFusion'), (21, 'test_matmul');
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId, domainId) VALUES
  (1000, 8000, 59, NULL, 281480009875757, 20, 0),
  (1200, 1300, 59, 'getTerminatingOutputs', 281480009875757, NULL, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES
  (2000, 2500, 1, 281480009875757, 1693, 1, 0),
  (6000, 6100, 1, 281480009875757, 1694, 2, 0),
  (6500, 7000, 1, 281480009875757, 1695, 3, 0),
  (8500, 8600, 1, 281480009875757, 1696, 1, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES
  (3000, 5000, 0, 1, 7, 1693, 281480009875456, 4, 4, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1),
  (8700, 8800, 0, 1, 7, 1696, 281480009875456, 99, 5, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 2);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind) VALUES
  (6200, 6400, 0, 1, 7, 1694, 281480009875456, 1, 2, 2, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, streamId, correlationId, globalPid, syncType, eventId) VALUES
  (6600, 6900, 0, 1, 7, 1695, 281480009875456, 3, 4294967295);
INSERT INTO TARGET_INFO_GPU (vmId, id, name) VALUES (0, 0, 'NVIDIA H200');
INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),
  (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'), (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device');
INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (21, 20, 281480009875757);
INSERT INTO PROCESSES (globalPid, pid, name) VALUES (281480009875456, 300, 'test_matmul');
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.16.1'), ('EXPORT_PRODUCT_VERSION', '2024.6.2.25');
